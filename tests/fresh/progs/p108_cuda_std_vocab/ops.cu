#include "vocab.h"

__device__ float run_ops(const Op* ops, int n, float x) {
  for (int i = 0; i < n; ++i) x = vs::visit(Apply{x}, ops[i]);
  return x;
}

__device__ vs::expected<float, Err> safe_at(Matrix m, int i, int j) {
  if (i < 0 || j < 0 || i >= m.extent(0) || j >= m.extent(1)) return vs::unexpected<Err>(Err::out_of_range);
  return m(i, j);
}

__device__ vs::optional<vs::tuple<int, int>> argmax(Matrix m) {
  if (m.extent(0) == 0 || m.extent(1) == 0) return vs::nullopt;
  int bi = 0, bj = 0;
  for (int i = 0; i < m.extent(0); ++i)
    for (int j = 0; j < m.extent(1); ++j)
      if (m(i, j) > m(bi, bj)) { bi = i; bj = j; }
  return vs::make_tuple(bi, bj);
}

__global__ void trace_kernel(float* d, int rows, int cols, float* out) {
  Matrix m(d, rows, cols);
  out[0] = trace(m);
}
