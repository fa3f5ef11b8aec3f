#pragma once
template <typename T> __device__ __noinline__ T mix(T a, T b) { return a * T(3) + b; }
template <typename T> __global__ void tk(T *o) { o[threadIdx.x] = mix(o[threadIdx.x], T(1)); }
