extern __device__ int nowhere_defined(int);
__global__ void calls_missing(int *p) { p[0] = nowhere_defined(p[1]); }
