__device__ __noinline__ int g(int x) { return x + 1; }
__device__ int (*volatile fa)(int) = g;
__global__ void K0(int*);
__device__ __noinline__ int f(int x) { K0<<<1, 1>>>((int*)0); return x; }
__global__ void K2(int* o) { o[0] = fa(o[1]) + f(o[2]); }
