__device__ int fill_local(int seed, int n);
__device__ int walk(int d, int acc);
__device__ float smooth(float x, float y);
__device__ int apply(int which, int a, int b);
__global__ void k_stack(int *o, int n) { o[threadIdx.x] = fill_local(threadIdx.x, n) + walk(n, 1); }
__global__ void k_math(float *o, const float *x) { int i = threadIdx.x; o[i] = smooth(x[i], x[i + 1]) * x[i + 2] + x[i + 3]; }
__global__ void k_ptr(int *o) { o[threadIdx.x] = apply(threadIdx.x, o[0], o[1]); }
__global__ void k_plain(int *o) { o[threadIdx.x] += 1; }
