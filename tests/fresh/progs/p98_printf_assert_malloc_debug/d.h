#pragma once
#include <cassert>
#include <cstdio>
template <typename T> __device__ __noinline__ T checked_div(T a, T b) {
  assert(b != T(0) && "division by zero");
  if (b == T(0)) printf("[%s] checked_div<%d> by zero at %s:%d\n", __func__, (int)sizeof(T), __FILE__, __LINE__);
  return a / b;
}
__device__ void log_event(int kind, const char* what, double v);
__device__ void* pool_get(size_t n);
__device__ void pool_put(void* p);
__device__ int check_range(const int* p, int n, int lo, int hi);
__device__ int extra_dump(const char* tag, const float* p, int n);
