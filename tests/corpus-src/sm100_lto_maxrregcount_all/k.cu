__device__ float f(const float *c, float x);
__global__ void k(const float *c, float *p) { p[threadIdx.x] = f(c, p[threadIdx.x]); }
