#pragma once

__device__ float rdc_poly(float x);      // rdc.cu
__device__ float ew1_norm(const float* p, int n);  // ew1.cu
__device__ int ew2_hash(unsigned v);     // ew2.cu
