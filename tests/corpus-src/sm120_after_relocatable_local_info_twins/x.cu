__global__ void kx(float* p, int n) { p[threadIdx.x] = p[n] / p[threadIdx.x + 1]; }
