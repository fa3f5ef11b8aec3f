__device__ int cfun(int x) { return x ^ 0x55; }
__global__ void kc(int *p) { p[1] = cfun(p[2]); }
