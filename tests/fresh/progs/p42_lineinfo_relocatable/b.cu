__device__ int la(int x);
__device__ __noinline__ int lb(int x) { return la(x) ^ 3; }
__global__ void kb(int *o) { o[0] = lb(o[1]); }
