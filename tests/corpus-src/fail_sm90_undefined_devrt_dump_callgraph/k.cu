__device__ float scale(float);
__device__ int counter;
__global__ void kmain(float* v, int n) { v[n] = scale(v[0]); counter++; }
__global__ void kunused(int* p) { p[0] = 1; }
