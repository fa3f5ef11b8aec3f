__device__ int lb(int x);
__global__ void kc(int *o) { o[2] = lb(o[3]) + 1; }
