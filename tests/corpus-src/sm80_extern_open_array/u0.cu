extern __device__ int garr[];
__global__ void k0(int *o) { o[threadIdx.x] = garr[threadIdx.x]; }
