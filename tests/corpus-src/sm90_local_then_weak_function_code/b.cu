__global__ void kb(float* p, float q) { p[threadIdx.x] = q / p[threadIdx.x]; }
