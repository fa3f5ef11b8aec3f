struct Big { float v[1500]; int n; };
struct Huge { double d[3000]; };
__global__ void k_big(const __grid_constant__ Big b, float *o) { o[threadIdx.x] = b.v[threadIdx.x % 1500] * b.n; }
__global__ void k_huge(const __grid_constant__ Huge h, double *o) { o[threadIdx.x] = h.d[threadIdx.x % 3000]; }
__device__ __noinline__ float takes(Big b) { return b.v[3]; }
__global__ void k_pass(Big b, float *o) { o[0] = takes(b); }
