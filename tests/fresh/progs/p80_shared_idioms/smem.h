#pragma once
// The CUDA samples' SharedMemory<T> idiom: one extern __shared__ array per element type.
template <class T> struct SharedMemory {
  __device__ inline operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }
};
template <> struct SharedMemory<double> {
  __device__ inline operator double*() { extern __shared__ double __smem_d[]; return __smem_d; }
};
template <class T> __device__ T block_sum(T v);      // reduce.cu
using combine_fn = float (*)(float, float);
extern __constant__ combine_fn combiners[2];          // reduce.cu
