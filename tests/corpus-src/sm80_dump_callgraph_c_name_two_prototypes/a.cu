extern "C" __device__ __noinline__ int g(int x) { return x + 1; }
__device__ int (*volatile p0)(int) = g;
__global__ void A(int* o) { o[0] = p0(o[1]); }
