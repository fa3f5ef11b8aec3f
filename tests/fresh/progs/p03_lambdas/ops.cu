#include "algo.cuh"
__device__ float poly_eval(const cuda::std::array<float, 4>& c, float x) {
  float r = 0.f;
  for (int i = 3; i >= 0; --i) r = r * x + c[i];
  return r;
}
void launch_ops(float* d, int n) {
  transform<<<1, 128>>>(d, d, n, Affine{2.f, 1.f});
  transform<<<1, 128>>>(d, d, n, [] __device__(float x) { return x * x; });
  cuda::std::array<float, 4> c{1.f, 2.f, 3.f, 4.f};
  transform<<<1, 128>>>(d, d, n, [c] __device__(float x) { return poly_eval(c, x); });
}
