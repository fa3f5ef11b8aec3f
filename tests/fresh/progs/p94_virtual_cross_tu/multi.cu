#include "v.h"
__device__ float Both::eval(float x) const { return x * t; }
__device__ unsigned Both::tag() const { return 9u + id; }
__device__ Both::~Both() {}
__global__ void multi_kernel(float* out) {
  Both b(threadIdx.x);
  Node* n = &b; Tagged* t = &b;
  Wrap<int> w(1, 3);
  out[threadIdx.x] = n->eval(1.f) + t->tag() + w.eval(2.f);
}
