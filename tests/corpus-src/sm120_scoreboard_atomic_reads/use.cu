#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>
extern __device__ unsigned short g_lock16;
extern __device__ unsigned long long g_max64;
extern __device__ long long g_min64;
__device__ void lock16(unsigned short *l);
__device__ void unlock16(unsigned short *l);
__device__ void acc_half(__half2 v, __nv_bfloat16 b);
__device__ int g_crit;
__global__ void critical(int *out) {
  if (threadIdx.x % 32 == 0) { lock16(&g_lock16); g_crit += 1; out[blockIdx.x] = g_crit; unlock16(&g_lock16); }
}
__global__ void scoped(int *p, unsigned long long v, long long w) {
  atomicAdd_block(p, 1);
  atomicAdd_system(p + 1, 2);
  atomicExch_system((unsigned *)p + 2, 3u);
  atomicMax(&g_max64, v);
  atomicMin(&g_min64, w);
  unsigned short old = atomicCAS((unsigned short *)(p + 3), (unsigned short)1, (unsigned short)2);
  __threadfence_system();
  cuda::atomic_ref<int, cuda::thread_scope_device> r(p[4]);
  r.fetch_add(old, cuda::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_system> s(p[5]);
  s.store(7, cuda::memory_order_release);
  __nanosleep(100);
}
__global__ void halves(const float *x) { acc_half(__floats2half2_rn(x[0], x[1]), __float2bfloat16(x[2])); }
