#include "shared.h"
__device__ float op_sq(float x) { return x * x + big_coef[1]; }
__device__ float op_neg(float x) { return -x + (float)big_idx[lut[1]]; }
__device__ float op_half(float x) { return x * big_coef[2] + c_views.coef[0]; }
__device__ float op_id(float x) { return x + *cursor; }
