__device__ __noinline__ float plain_fn(float x) { return x * 2.f; }
__global__ void k_plain(float *o) { o[threadIdx.x] = o[threadIdx.x] + 1.f; }
__global__ void k_calls_plain(float *o) { o[threadIdx.x] = plain_fn(o[threadIdx.x]); }
