__global__ void k_a(float *o) { o[threadIdx.x] = 1.f; }
__global__ void k_b(float *o, int n) { if (threadIdx.x >= n) return; o[threadIdx.x] = o[threadIdx.x] * 2.f + 1.f; }
__global__ void k_c(int *o, int n) { for (int i = 0; i < n; i++) { if (o[i] == 0) return; o[i] += 1; } }
__global__ void k_d(int *o, int n) { int s = 0; for (int i = threadIdx.x; i < n; i += 32) s += o[i] * i; o[threadIdx.x] = s; }
__global__ void k_e(float *o) { __shared__ float s[64]; s[threadIdx.x & 63] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = s[(threadIdx.x + 1) & 63] + s[(threadIdx.x + 2) & 63]; }
__global__ void k_f(int *o, int a, int b) { int x = a; if (b > 3) { x += b; } else { x -= b; } if (x > 100) return; atomicAdd(o, x); }
__device__ __noinline__ int g_fn(int x) { return x * 3; }
__global__ void k_g(int *o) { o[threadIdx.x] = g_fn(o[threadIdx.x]); }
