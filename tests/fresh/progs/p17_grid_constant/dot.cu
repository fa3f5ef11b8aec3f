#include "params.cuh"
__device__ float row_dot(const Params& p, int r, const float* v) {
  const float* row = &p.m[r][0];
  float s = 0; for (int i = 0; i < 16; ++i) s += row[i] * v[i];
  return s + p.dims[r & 3];
}
__global__ void addr_taken(const __grid_constant__ Params p, const float** where) { *where = &p.m[0][0]; }
