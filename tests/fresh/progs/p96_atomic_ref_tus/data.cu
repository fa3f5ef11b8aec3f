#include "at.h"
__device__ int g_int[32];
__device__ unsigned long long g_u64 = 5;
__device__ float g_f[8];
__device__ double g_d = 1.0;
__device__ short g_s[4];
__device__ int* g_ptr = &g_int[3];
