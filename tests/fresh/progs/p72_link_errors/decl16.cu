extern __device__ int v[16];
__global__ void k1(int *o){ o[0] = v[threadIdx.x]; }
