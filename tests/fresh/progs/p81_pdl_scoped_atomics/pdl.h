#pragma once
#include <cuda_runtime.h>
struct Slot { float v[4]; unsigned seq; };
extern __device__ unsigned g_ready;
extern __device__ unsigned long long g_total;
extern __device__ Slot g_slots[256];
__device__ void wait_for_primary();
__device__ void release_dependents();
__device__ float stage_value(const float *in, int i, int n);
__device__ unsigned publish(unsigned *flag, unsigned v);
__device__ unsigned observe(unsigned *flag);
__device__ void add_vec(float4 *dst, float4 v);
__device__ void bump_total(unsigned long long d);
