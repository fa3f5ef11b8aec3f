#pragma once
template <typename T> __device__ __noinline__ T clampv(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
__device__ __noinline__ inline int hash32(int x) { x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; return x; }
