__device__ int g[32];
__global__ void reset() { for (int i = 0; i < 32; ++i) g[i] = 0; }
