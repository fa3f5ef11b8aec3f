__device__ int scale(int x) { return x * 7 + 3; }
