#include <cstdint>
__device__ int u_fn(int);
__global__ void __launch_bounds__(384, 1) wspec(int *o) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  if (threadIdx.x < 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
  o[threadIdx.x] *= 3;
}
__global__ void calls_u(int *o) { o[threadIdx.x] = u_fn(threadIdx.x); }
__global__ void tmem(int *o) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH__ == 1000)
  __shared__ uint32_t taddr;
  if (threadIdx.x < 32) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" :: "r"((unsigned)__cvta_generic_to_shared(&taddr)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  o[threadIdx.x] = taddr;
  __syncthreads();
  if (threadIdx.x < 32) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" :: "r"(taddr));
#else
  o[threadIdx.x] = u_fn(1);
#endif
}
