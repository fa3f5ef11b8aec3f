#include "at.h"
__device__ __noinline__ int ops_block(int v) {
  cuda::atomic_ref<int, cuda::thread_scope_block> r(g_int[v & 31]);
  int old = r.load(cuda::std::memory_order_acquire);
  while (!r.compare_exchange_weak(old, old + v, cuda::std::memory_order_acq_rel, cuda::std::memory_order_relaxed)) {}
  r.fetch_min(v); r.fetch_and(0xff); r.fetch_or(v << 8);
  cuda::std::atomic_ref<short> s(g_s[v & 3]);
  s.store((short)v, cuda::std::memory_order_release);
  return old + s.exchange((short)(v + 1));
}
__device__ __noinline__ unsigned long long ops_device(unsigned long long v) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> r(g_u64);
  unsigned long long e = r.load();
  r.compare_exchange_strong(e, e ^ v, cuda::std::memory_order_seq_cst);
  r.notify_all();
  Counter<unsigned long long, cuda::thread_scope_device> c{&g_u64};
  return c.bump(v) + c.peak(v * 3);
}
__device__ __noinline__ double ops_system(double v) {
  cuda::atomic_ref<double, cuda::thread_scope_system> d(g_d);
  cuda::std::atomic_ref<float> f(g_f[(int)v & 7]);
  f.fetch_add(1.5f);
  cuda::std::atomic_ref<int*> p(g_ptr);
  int* old = p.exchange(&g_int[(int)v & 31]);
  return d.fetch_add(v) + f.load() + *old;
}
