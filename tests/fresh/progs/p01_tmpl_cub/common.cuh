#pragma once
#include <cub/block/block_reduce.cuh>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

template <typename T> struct SumOp { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct MaxOp { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };

template <typename T>
__device__ __forceinline__ T load_or(const T* p, int i, int n, T dflt) { return i < n ? p[i] : dflt; }

// inline (weak) non-template helper included by several TUs
__device__ inline float squash(float x) { return x / (1.0f + fabsf(x)); }

template <typename T, int BLOCK, typename Op>
__device__ T block_reduce(T v, Op op) {
  using BR = cub::BlockReduce<T, BLOCK>;
  __shared__ typename BR::TempStorage tmp;
  return BR(tmp).Reduce(v, op);
}

template <typename T, int BLOCK> __global__ void reduce_sum(const T* in, T* out, int n);
template <typename T, int BLOCK> __global__ void reduce_max(const T* in, T* out, int n);
extern __device__ unsigned long long g_calls;
__device__ float normalize_all(float* v, int n);
