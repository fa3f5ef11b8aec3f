__device__ void f(int *p);
__device__ int h(int);
__global__ void K(int *p) { f(p); p[1] = h(p[2]); }
