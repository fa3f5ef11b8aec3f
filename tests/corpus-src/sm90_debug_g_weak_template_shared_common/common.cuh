#pragma once
template <class T> __device__ T reg_counter;
template <class T> __device__ T reg_table[8];
template <class T> __constant__ T coeffs[4] = {T(1), T(2), T(3), T(4)};
template <class T> struct Registry {
  __device__ static void bump(T v) { atomicAdd(&reg_counter<T>, v); reg_table<T>[threadIdx.x & 7] = v; }
};
template <class T, int N> __device__ T block_sum(T v) {
  __shared__ T part[N];
  part[threadIdx.x % N] = v;
  __syncthreads();
  T s = 0;
  for (int i = 0; i < N; i++) s += part[i];
  __syncthreads();
  return s;
}
typedef float (*unary_t)(float);
template <int K> __device__ float scaled(float x) { return x * K; }
template <int K> __device__ unary_t pick() { return &scaled<K>; }
__device__ float dyn_reduce_f(int n);
__device__ double dyn_reduce_d(int n);
__device__ extern unary_t g_unary[3];
