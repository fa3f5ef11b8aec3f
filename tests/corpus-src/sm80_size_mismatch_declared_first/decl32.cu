extern __device__ int v[32];
__global__ void k3(int *o) { o[0] = v[threadIdx.x + 2]; }
