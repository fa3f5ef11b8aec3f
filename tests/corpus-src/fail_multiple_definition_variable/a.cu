__device__ int twice_defined_var = 1;
__global__ void ka(int *p) { p[0] = twice_defined_var; }
