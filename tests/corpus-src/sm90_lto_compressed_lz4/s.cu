__device__ int table[64];
__device__ float shade(float x, int i) { return sinf(x) * cosf(x * i) + expf(-x); }
__global__ void kfill(int v) { table[threadIdx.x & 63] = v + threadIdx.x; }
