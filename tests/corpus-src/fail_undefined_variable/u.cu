extern __device__ int missing_global;
extern __constant__ int missing_constant;
__global__ void reads_missing(int *p) { p[0] = missing_global + missing_constant; }
