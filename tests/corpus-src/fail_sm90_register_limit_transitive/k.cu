__device__ float leaf(const float* p, int n);
__device__ __noinline__ float mid(const float* p, int n) { return leaf(p, n) * 2.f; }
__global__ void kk(float* p, int n) { p[0] = mid(p, n); }
