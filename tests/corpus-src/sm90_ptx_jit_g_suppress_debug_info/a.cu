__device__ int lto_fn(int x) { return x * 11; }
__global__ void lto_k(int *o) { o[0] = lto_fn(o[1]); }
