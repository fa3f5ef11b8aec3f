#pragma once
struct Coeff { float w[8]; int shift; short tag; char name[6]; };
extern __constant__ Coeff c_filters[16];
extern __constant__ float c_lut[256];
extern __constant__ int c_nfilters;
extern __device__ int g_counts[64];
extern __device__ double g_accum;
