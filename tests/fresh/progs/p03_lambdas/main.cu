#include "algo.cuh"
#include <cstdio>
void launch_ops(float*, int);
__device__ int g_hist[16];
void launch_all(float* d, int n) {
  launch_ops(d, n);
  for_each_n<<<2, 64>>>(n, [d] __device__(int i) {
    auto t = cuda::std::make_tuple(i, d[i], i * 2);
    atomicAdd(&g_hist[cuda::std::get<0>(t) & 15], cuda::std::get<2>(t));
  });
  int* h = nullptr;
  for_each_n<<<2, 64>>>(n, [h, d] __device__(int i) { if (h) h[i] = (int)d[i]; });
  transform<<<1, 32>>>((const int*)nullptr, (int*)nullptr, n, cuda::std::negate<int>());
}
int main() { launch_all(nullptr, 0); return 0; }
