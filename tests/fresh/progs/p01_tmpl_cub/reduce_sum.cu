#include "common.cuh"
__device__ unsigned long long g_calls;

template <typename T, int BLOCK>
__global__ void reduce_sum(const T* in, T* out, int n) {
  T v = load_or(in, blockIdx.x * BLOCK + threadIdx.x, n, T(0));
  T r = block_reduce<T, BLOCK>(v, SumOp<T>());
  if (threadIdx.x == 0) { atomicAdd(&g_calls, 1ull); out[blockIdx.x] = r; }
}
template __global__ void reduce_sum<float, 128>(const float*, float*, int);
template __global__ void reduce_sum<float, 256>(const float*, float*, int);
template __global__ void reduce_sum<double, 256>(const double*, double*, int);
template __global__ void reduce_sum<int, 64>(const int*, int*, int);
template __global__ void reduce_sum<unsigned long long, 512>(const unsigned long long*, unsigned long long*, int);
