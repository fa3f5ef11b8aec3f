#include "pdl.h"
#include <cuda/atomic>
__device__ unsigned g_ready = 0;
__device__ unsigned long long g_total = 0;
__device__ __noinline__ unsigned publish(unsigned *flag, unsigned v) {
  unsigned old = __nv_atomic_fetch_add(flag, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_max(&g_ready, old + v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> r(*flag);
  r.notify_all();
  return old;
}
__device__ __noinline__ unsigned observe(unsigned *flag) {
  unsigned v;
  __nv_atomic_load(flag, &v, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  unsigned expected = v, desired = v | 0x80000000u;
  __nv_atomic_compare_exchange(flag, &expected, &desired, false, __NV_ATOMIC_ACQ_REL,
                               __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
  return v;
}
__device__ void bump_total(unsigned long long d) {
  __nv_atomic_fetch_add(&g_total, d, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  unsigned long long x = d;
  __nv_atomic_store(&g_slots[d & 255].seq, (unsigned *)&x, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
}
