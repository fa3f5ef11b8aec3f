__global__ void k_dbg_leaf(float *o) { o[threadIdx.x] = o[threadIdx.x] * 2.f; }
__global__ void k_dbg_fence(float *o) { o[threadIdx.x] = 1.f; __threadfence(); }
__global__ void k_dbg_exits(float *o, int n) { if (threadIdx.x >= n) return; o[threadIdx.x] = 3.f; }
