__global__ void k(float* p, int n) { cudaMemsetAsync(p, 0, n * sizeof(float), 0); }
