#include "h.cuh"
__global__ void kx(int *o) { o[0] = zc<long> + ic<long> + cc<long>[o[1]]; }
