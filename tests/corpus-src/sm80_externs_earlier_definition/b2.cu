__device__ void log_value(const char* tag, int i, double v);
__device__ int* push(int k) { int* n = (int*)malloc(8); if (n) *n = k; return n; }
__global__ void k(int n) { int* p = push(n); log_value("x", n, *p); free(p); }
