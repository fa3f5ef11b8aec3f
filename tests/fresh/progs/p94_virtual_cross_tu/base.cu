#include "v.h"
__device__ Node::~Node() {}
__device__ float Node::eval(float x) const { return x + id; }
__device__ unsigned Tagged::tag() const { return t; }
__device__ __noinline__ float eval_all(Node** ns, int n, float x) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += ns[i]->eval(x) * ns[i]->kind();
  return s;
}
