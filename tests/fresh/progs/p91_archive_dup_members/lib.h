#pragma once
__device__ float fx(float v);
__device__ float fy(float v);
__device__ int a1_count(const int* p, int n);
__device__ float conf_only(float v);
extern __device__ int x_hits;
extern __device__ int y_hits;
