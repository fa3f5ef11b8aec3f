extern __device__ int only_vars[3];
extern __constant__ float only_consts[2];
__global__ void kk(float *o) { o[0] = only_vars[1] * only_consts[1]; }
