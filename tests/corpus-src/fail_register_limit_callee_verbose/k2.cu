__device__ float mid(float x, int k);
__device__ float h(float x, int k);
__global__ void k(float* v) { v[0] = mid(v[1], 3) + h(v[2], 4); }
__global__ void k_other(float* v) { v[0] = h(v[1], 5); }
