#include "kernels.cuh"
template <typename T> __global__ void fill(T* p, T v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v; }
template <typename T> __global__ void scale(T* p, T s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= s; }
template __global__ void fill<float>(float*, float, int);
template __global__ void fill<int>(int*, int, int);
template __global__ void fill<double>(double*, double, int);
template __global__ void scale<float>(float*, float, int);
template __global__ void scale<double>(double*, double, int);
__device__ float clampf(float x) { return fminf(fmaxf(x, 0.f), 1.f); }
