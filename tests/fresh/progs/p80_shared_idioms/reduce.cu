// Block reductions over dynamic shared memory (SharedMemory<T>), a function template
// instantiated here for int/float/double, and a __constant__ table of function pointers.
#include "smem.h"
template <class T> __device__ T block_sum(T v) {
  T* s = SharedMemory<T>();
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned o = blockDim.x / 2; o; o >>= 1) { if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o]; __syncthreads(); }
  return s[0];
}
template __device__ int block_sum<int>(int);
template __device__ float block_sum<float>(float);
template __device__ double block_sum<double>(double);
__device__ float add_f(float a, float b) { return a + b; }
__device__ float max_f(float a, float b) { return fmaxf(a, b); }
__constant__ combine_fn combiners[2] = {add_f, max_f};

template <class T> __global__ void reduce_kernel(const T* in, T* out) {
  T r = block_sum<T>(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}
template __global__ void reduce_kernel<int>(const int*, int*);
template __global__ void reduce_kernel<double>(const double*, double*);
