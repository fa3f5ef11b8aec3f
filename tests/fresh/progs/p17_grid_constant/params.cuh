#pragma once
struct Params { float m[16][16]; int dims[4]; const float* src; float* dst; double scale; };
__device__ float row_dot(const Params& p, int r, const float* v);
