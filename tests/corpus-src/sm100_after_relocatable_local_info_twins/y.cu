__global__ void ky(float* p, int n) { p[threadIdx.x] = p[n + 1] / p[threadIdx.x + 2]; }
