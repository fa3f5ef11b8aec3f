#pragma once
__device__ inline int mix(int a, int b) { return a * 31 + b; }
__device__ __noinline__ inline float smooth(float x) { return x * x * (3.f - 2.f * x); }
template <int N> __device__ __noinline__ int unroll_sum(const int* v) { int s = 0; for (int i = 0; i < N; ++i) s += v[i]; return s; }
namespace { __device__ int anon_counter; __device__ __noinline__ int bump() { return atomicAdd(&anon_counter, 1); } }
static __device__ __noinline__ int file_local(int x) { return x ^ 0x55; }
struct Acc { int v; __device__ Acc& operator+=(int x) { v = mix(v, x); return *this; } __device__ __noinline__ int get() const { return v + file_local(v); } };
