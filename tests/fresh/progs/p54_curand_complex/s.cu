#include <curand_kernel.h>
__global__ void k_xor(float *o, unsigned long long seed) { curandState st; curand_init(seed, threadIdx.x, 0, &st); o[threadIdx.x] = curand_uniform(&st); }
