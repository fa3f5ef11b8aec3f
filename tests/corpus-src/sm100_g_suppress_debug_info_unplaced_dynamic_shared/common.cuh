#pragma once
template <class T, int N, int A> __device__ T block_sum(T v) {
  __shared__ __align__(A) T part[N];
  part[threadIdx.x % N] = v;
  __syncthreads();
  T s = 0;
  for (int i = 0; i < N; i++) s += part[i];
  __syncthreads();
  return s;
}
__device__ float dyn_reduce_f(int n);
