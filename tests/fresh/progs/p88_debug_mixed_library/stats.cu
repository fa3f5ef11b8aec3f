#include "lib.h"
__device__ float acc_sum;
__device__ unsigned acc_n;
__device__ void record(float v) { atomicAdd(&acc_sum, v); atomicAdd(&acc_n, 1u); }
__device__ float mean() { return acc_n ? acc_sum / acc_n : 0.f; }
