__device__ __noinline__ float plain_fn(float x) { return x * 2.f; }
__device__ __noinline__ void dev_exit(int x) { if (x) asm volatile("exit;"); }
__global__ void k_plain(float *o) { o[threadIdx.x] = o[threadIdx.x] + 1.f; }
__global__ void k_empty() { }
__global__ void k_two_exits(float *o, int n) { int i = threadIdx.x; if (i >= n) return; o[i] = o[i] * 3.f; if (o[i] > 2.f) return; o[i + 1] = 1.f; }
__global__ void k_loop_exit(int *o, int n) { for (int i = 0; i < n; i++) { if (o[i] == 0) return; o[i] += 1; } }
__global__ void k_asm_exit(int *o) { if (o[threadIdx.x] > 5) asm volatile("exit;"); o[threadIdx.x] = 2; }
__global__ void k_stack(int *o, int j) { volatile int a[64]; for (int i = 0; i < 64; i++) a[i] = o[i]; o[threadIdx.x] = a[j & 63]; }
__global__ void k_trap(int *o) { if (o[0] == 7) __trap(); o[1] = 3; }
__global__ void k_fence(float *o) { o[threadIdx.x] = 1.f; __threadfence(); }
