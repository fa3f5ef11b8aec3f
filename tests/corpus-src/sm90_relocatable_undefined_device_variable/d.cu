extern __device__ int gtab[16];
__global__ void kd(int *o) { o[threadIdx.x] = gtab[threadIdx.x & 15]; }
