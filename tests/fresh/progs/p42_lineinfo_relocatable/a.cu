__device__ __noinline__ int la(int x) { return x * 7 + 1; }
__device__ __noinline__ int unused_la(int x) { return x - 9; }
__global__ void ka(int *o) { o[threadIdx.x] = la(o[threadIdx.x]); }
