#pragma once
__device__ unsigned sad_bytes(unsigned a, unsigned b);
__device__ int dot_bytes(int a, int b, int c);
__device__ unsigned shuffle_bytes(unsigned a, unsigned b, unsigned sel);
__device__ unsigned long long rot_rev(unsigned long long x, unsigned s);
__device__ unsigned ptx_mix(unsigned a, unsigned b, unsigned c);
__device__ unsigned warp_stats(unsigned v);
__device__ float ptx_float(float x, float y);
__device__ unsigned long long stamp();
