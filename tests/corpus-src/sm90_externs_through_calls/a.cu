__device__ void f(int *p);
__global__ void K(int *p) { f(p); }
