#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float grid_sum(const float *in, float *partials, int n);
__device__ void grid_normalize(float *data, int n, float total);
__device__ int tile_classify(const int *keys, int *out, int i);
__device__ float staged_tile_sum(const float *src, int n);
__device__ float cluster_exchange(float v);
