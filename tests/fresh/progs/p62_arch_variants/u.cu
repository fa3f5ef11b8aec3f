__device__ int u_fn(int x) {
#if defined(__CUDA_ARCH_SPECIFIC__)
  return x * 5 + __CUDA_ARCH_SPECIFIC__;
#elif defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  return x * 7 + __CUDA_ARCH_FAMILY_SPECIFIC__;
#else
  return x * 3;
#endif
}
__device__ int g_u[4];
