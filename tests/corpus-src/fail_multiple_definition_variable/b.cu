__device__ int twice_defined_var = 2;
__global__ void kb(int *p) { p[0] = twice_defined_var; }
