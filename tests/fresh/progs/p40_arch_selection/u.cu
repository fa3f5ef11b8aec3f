__device__ int twist(int x);
__global__ void use(int *o) { o[0] = twist(o[1]); }
