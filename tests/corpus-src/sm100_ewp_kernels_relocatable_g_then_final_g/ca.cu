__device__ __noinline__ int hh(int x) { return x * x + 1; }
__global__ void k_call(int* o) { o[0] = hh(o[1]); }
