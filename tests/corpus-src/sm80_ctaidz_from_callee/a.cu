extern __device__ int f(int *o);
__global__ void k(int *o) { o[0] = f(o); }
