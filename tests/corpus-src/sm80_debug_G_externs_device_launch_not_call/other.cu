__device__ int q();
__global__ void o(int* p) { p[0] = q(); }
