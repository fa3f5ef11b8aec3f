#pragma once
inline __device__ int g_counter = 7;
inline __device__ float g_scale[4] = {1.f, 2.f, 3.f, 4.f};
template <typename T> __device__ T tally = T(1);
inline __device__ int bump(int v) { return atomicAdd(&g_counter, v); }
