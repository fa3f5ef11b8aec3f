__device__ __noinline__ float li_fn(float x) { return x * 2.f; }
__device__ __noinline__ void li_exit(int x) { if (x) asm volatile("exit;"); }
__global__ void k_li_plain(float *o) { o[threadIdx.x] = o[threadIdx.x] + 1.f; }
__global__ void k_li_call(float *o) { o[threadIdx.x] = li_fn(o[threadIdx.x]); li_exit(threadIdx.x & 4); o[0] = 5.f; }
__global__ void k_li_guarded(float *o) {
  if (o[threadIdx.x] > 5.f) return;
  o[threadIdx.x] = li_fn(o[threadIdx.x]);
  if (o[threadIdx.x] < 1.f) return;
  o[threadIdx.x + 1] = 2.f;
}
__global__ void k_li_exits(float *o, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  o[i] = o[i] * 3.f;
  if (o[i] > 2.f) return;
  o[i + 1] = 1.f;
}
__global__ void k_li_loop(int *o, int n) { for (int i = 0; i < n; i++) { if (o[i] == 0) return; o[i] += 1; } }
