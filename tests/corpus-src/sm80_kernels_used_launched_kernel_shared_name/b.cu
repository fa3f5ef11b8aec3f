__device__ __noinline__ int h(int x) { return x * 2; }
__device__ int (*volatile fb)(int) = h;
__global__ void K0(int* o) { o[0] = fb(o[1]); }
