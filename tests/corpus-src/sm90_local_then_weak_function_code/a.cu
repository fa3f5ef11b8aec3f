__global__ void ka(float* p, float q) { p[threadIdx.x] = p[threadIdx.x] / q; }
