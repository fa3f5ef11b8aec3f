#pragma once
__device__ float geo_area(float a, float b);
__device__ int other_pick(int v);
__device__ double ptx_only(double x);
extern __device__ int geo_calls;
