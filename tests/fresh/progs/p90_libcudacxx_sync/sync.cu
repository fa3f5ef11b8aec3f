#include "sy.h"
#include <cuda/annotated_ptr>
#include <cuda/discard_memory>
__device__ cuda::counting_semaphore<cuda::thread_scope_device, 8> g_slots(4);
__device__ cuda::atomic<int, cuda::thread_scope_device> g_epoch(0);
__device__ cuda::std::atomic<float> g_fsum(0.f);
__device__ cuda::std::atomic_flag g_flag;
__device__ __noinline__ void throttled(float v) {
  g_slots.acquire();
  g_fsum.fetch_add(v, cuda::std::memory_order_relaxed);
  if (!g_flag.test_and_set()) g_epoch.fetch_add(1, cuda::std::memory_order_release);
  g_epoch.notify_all();
  g_slots.release();
}
__device__ __noinline__ int wait_epoch(int seen) {
  g_epoch.wait(seen, cuda::std::memory_order_acquire);
  return g_epoch.load();
}
__device__ __noinline__ float hinted_read(float *g, int i, int n) {
  cuda::annotated_ptr<float, cuda::access_property::streaming> s(g);
  cuda::annotated_ptr<float, cuda::access_property> p(g, cuda::access_property(g, n * sizeof(float), n * sizeof(float), cuda::access_property::persisting{}));
  cuda::apply_access_property(g, 256, cuda::access_property::persisting{});
  float v = s[i] + p[(i + 1) % n];
  if (i == 0) cuda::discard_memory(g + n, 128);
  return v;
}
__device__ __noinline__ int block_latch_count() {
  __shared__ alignas(cuda::latch<cuda::thread_scope_block>) unsigned char lraw[sizeof(cuda::latch<cuda::thread_scope_block>)];
  __shared__ alignas(cuda::binary_semaphore<cuda::thread_scope_block>) unsigned char braw[sizeof(cuda::binary_semaphore<cuda::thread_scope_block>)];
  auto &l = *reinterpret_cast<cuda::latch<cuda::thread_scope_block> *>(lraw);
  auto &b = *reinterpret_cast<cuda::binary_semaphore<cuda::thread_scope_block> *>(braw);
  __shared__ int count;
  if (threadIdx.x == 0) { new (&l) cuda::latch<cuda::thread_scope_block>(blockDim.x); new (&b) cuda::binary_semaphore<cuda::thread_scope_block>(1); count = 0; }
  __syncthreads();
  b.acquire(); ++count; b.release();
  l.arrive_and_wait();
  return count;
}
