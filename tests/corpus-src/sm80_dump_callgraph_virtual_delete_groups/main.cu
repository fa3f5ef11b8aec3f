#include "shapes.cuh"
struct Tri : Shape { float b, h; __device__ Tri(float b, float h) : b(b), h(h) {} __device__ float area() const override { return 0.5f * b * h; } };
__global__ void areas(const int* kinds, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape* s = kinds[i] == 2 ? (Shape*)new Tri(1.f, i) : make_shape(kinds[i], i, 2.f);
  float a = s->area();
  a = g_ops[i & 3](a);
  out[i] = a + (s->name()[0] == 'r');
  delete s;
}
__global__ void apply_op(float* v, int n, unary_fn f) { int i = threadIdx.x; if (i < n) v[i] = f(v[i]); }
