#pragma once
#include <thrust/tuple.h>
#include <thrust/pair.h>
__device__ int sort_row(int *keys, float *vals, int n);
__device__ thrust::pair<int, int> bounds(const int *sorted, int n, int lo, int hi);
__device__ float scan_row(float *row, int n);
__device__ int compact_row(const float *row, float *out, int n, float cut);
__device__ thrust::tuple<float, float> minmax_row(const float *row, int n);
