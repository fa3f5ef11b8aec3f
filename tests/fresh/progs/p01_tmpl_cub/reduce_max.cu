#include "common.cuh"
template <typename T, int BLOCK>
__global__ void reduce_max(const T* in, T* out, int n) {
  T v = load_or(in, blockIdx.x * BLOCK + threadIdx.x, n, cuda::std::numeric_limits<T>::lowest());
  T r = block_reduce<T, BLOCK>(v, MaxOp<T>());
  if (threadIdx.x == 0) { atomicAdd(&g_calls, 1ull); out[blockIdx.x] = r; }
}
template __global__ void reduce_max<float, 128>(const float*, float*, int);
template __global__ void reduce_max<int, 256>(const int*, int*, int);
template __global__ void reduce_max<short, 32>(const short*, short*, int);

__global__ void squash_kernel(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = squash(v[i]);
  if (i == 0) normalize_all(v, n);
}
