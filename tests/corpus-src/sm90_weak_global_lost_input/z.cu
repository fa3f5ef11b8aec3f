#include "h.cuh"
__global__ void kz(int *o) { o[0] = zc<int> + ic<int> + cc<int>[o[1]] + zc<long> + ic<long> + (int)cc<long>[1]; }
