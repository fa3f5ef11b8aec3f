// Application: polymorphic objects made in device code (factory in the library), indirect
// calls through the library's table, the same template instantiations as the library.
#include "shapes.h"
__device__ Shape* make_ring(float r, float i);
__device__ double sum_doubles(const double* p, int n);

__global__ void areas(const int* kinds, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape* s = kinds[i] < 2 ? make_shape(kinds[i], v[i]) : make_ring(v[i], v[i] * 0.5f);
  out[i] = activations[i % 3](s->scale(2.f));
  Stats<float>::add(out[i]);
  delete s;
}

__global__ void sums(const int* a, const double* d, int n, double* out) {
  out[0] = clamp_sum<int>(a, n, 100) + sum_doubles(d, n);
  Stats<int>::add(n);
}
