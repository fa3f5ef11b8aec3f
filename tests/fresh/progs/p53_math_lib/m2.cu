#include <cmath>
__device__ double wave(double x);
__device__ __noinline__ double mix(double x) { return pow(x, 2.5) + atan2(x, 1.0 + x) + cbrt(x) + tgamma(x * 0.1 + 1.0); }
__global__ void k_mix(double *d) { d[threadIdx.x] = mix(d[threadIdx.x]) + wave(d[0]); }
__global__ void k_int(int *o) { o[threadIdx.x] = __popc(o[threadIdx.x]) + __brev(o[0]) + (int)lgamma((double)o[1]); }
