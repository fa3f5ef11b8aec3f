#pragma once
template <typename T> __global__ void fill(T* p, T v, int n);
template <typename T> __global__ void scale(T* p, T s, int n);
__global__ void saxpy(float a, const float* x, float* y, int n);
__device__ float clampf(float x);
