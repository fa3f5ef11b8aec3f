#include "wide.h"

__device__ u128 g_acc128;
__device__ Pair g_pair;

__device__ u128 mul_wide(unsigned long long a, unsigned long long b) { return (u128)a * b; }

__device__ i128 dot128(const long long* a, const long long* b, int n) {
  i128 s = 0;
  for (int i = 0; i < n; ++i) s += (i128)a[i] * b[i];
  return s / 3 + s % 7;
}

// 128-bit add with a 128-bit compare-and-swap loop (sm_90+)
__device__ void add128(u128* p, u128 v) {
  u128 old = *p, seen;
  while ((seen = atomicCAS(p, old, old + v)) != old) old = seen;
}

__device__ bool try_swap_pair(Pair* p, Pair expect, Pair want) {
  Pair got = atomicCAS(p, expect, want);
  return got.lo == expect.lo && got.hi == expect.hi;
}

__global__ void child_dot(const long long* a, const long long* b, int n, i128* out) {
  i128 v = dot128(a + blockIdx.x * n, b + blockIdx.x * n, n);
  out[blockIdx.x] = v;
  add128(&g_acc128, (u128)v);
}

__global__ void child_mul(unsigned long long a, unsigned long long b) {
  u128 r = mul_wide(a + threadIdx.x, b);
  add128(&g_acc128, r >> 64);
}
