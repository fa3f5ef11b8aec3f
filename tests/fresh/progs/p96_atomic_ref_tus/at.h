#pragma once
#include <cuda/atomic>
#include <cuda/std/atomic>
extern __device__ int g_int[32];
extern __device__ unsigned long long g_u64;
extern __device__ float g_f[8];
extern __device__ double g_d;
extern __device__ short g_s[4];
extern __device__ int* g_ptr;
__device__ int ops_block(int v);
__device__ unsigned long long ops_device(unsigned long long v);
__device__ double ops_system(double v);
template <typename T, cuda::thread_scope S> struct Counter {
  T* p;
  __device__ T bump(T v) { cuda::atomic_ref<T, S> r(*p); return r.fetch_add(v, cuda::std::memory_order_relaxed); }
  __device__ T peak(T v) { cuda::atomic_ref<T, S> r(*p); return r.fetch_max(v, cuda::std::memory_order_acq_rel); }
};
