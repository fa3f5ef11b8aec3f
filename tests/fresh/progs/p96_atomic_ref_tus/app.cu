#include "at.h"
__global__ void hammer(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a = ops_block(i);
  unsigned long long b = ops_device(i);
  double c = ops_system(i * 0.5);
  Counter<int, cuda::thread_scope_block> k{&g_int[0]};
  k.bump(1);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(g_u64);
  if (i == 0) w.wait(0ull);
  Counter<float, cuda::thread_scope_device> fc{&g_f[1]};
  out[i] = a + (int)b + (int)c + k.peak(i) + (int)fc.bump(0.25f);
}
