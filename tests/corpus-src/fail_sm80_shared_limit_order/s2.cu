__device__ int g(int n) { return n <= 1 ? n : g(n - 1) + g(n - 2); }
__global__ void two(int* v) { v[0] = g(v[1]); }
