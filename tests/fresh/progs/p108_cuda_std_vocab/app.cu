#include "vocab.h"

__global__ void pipeline_kernel(float* d, int rows, int cols, float* out) {
  Matrix m(d, rows, cols);
  int i = blockIdx.x, j = threadIdx.x;
  Op ops[3] = {Add{1.f}, Scale{0.5f}, Clamp{-1.f, 1.f}};
  auto v = safe_at(m, i, j);
  if (!v) { atomicAdd(&g_errors[(int)v.error() & 3], 1); return; }
  float r = run_ops(ops, 3, *v);
  vs::inplace_vector<float, 8> acc;
  for (int k = 0; k < 8 && j + k < cols; ++k) acc.push_back(m(i, j + k) * r);
  auto mean = checked_mean(acc);
  out[i * cols + j] = mean.value_or(-1.f);
  if (i == 0 && j == 0) {
    if (auto am = argmax(m)) out[0] = (float)vs::get<0>(*am) * cols + vs::get<1>(*am);
    else log_site("argmax of an empty matrix");
    out[1] = trace(m);
  }
}

int main() { return 0; }
