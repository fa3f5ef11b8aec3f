#include <cstdio>
#include <cassert>
__device__ void log_value(const char* tag, int i, double v);
__global__ void scratch_kernel(int n) {
  float* tmp = new float[n];
  assert(tmp != nullptr);
  for (int i = 0; i < n; ++i) tmp[i] = i * 0.5f;
  log_value("scratch", threadIdx.x, tmp[n - 1]);
  delete[] tmp;
  printf("block %d thread %d done, %s\n", blockIdx.x, threadIdx.x, n > 4 ? "big" : "small");
}
