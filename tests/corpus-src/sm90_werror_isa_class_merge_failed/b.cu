__device__ int g(int x) { return x * 3 + 1; }
__global__ void kb(int *p) { p[threadIdx.x] += 2; }
