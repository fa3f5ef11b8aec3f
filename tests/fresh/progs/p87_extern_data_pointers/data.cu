#include "shared.h"
__device__ float samples[4096];
__device__ int lut[256] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
__constant__ short big_idx[8192];
__managed__ int m_hist[64];
__managed__ double m_state = 2.5;
__device__ float *cursor = samples + 2048;
__device__ int hits[4];
__device__ Entry op_table[4] = {{"square", op_sq, hits}, {"negate", op_neg, hits + 1}, {"half", op_half, hits + 2}, {"identity", op_id, &hits[3]}};
