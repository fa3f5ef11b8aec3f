#include "v.h"
__device__ float Lin::eval(float x) const { return a * x + b; }
__device__ int Lin::kind() const { return 1; }
__device__ float Quad::eval(float x) const { return Lin::eval(x) * x + c; }
__device__ Node* make_node(void* where, int k, float p) {
  switch (k & 3) {
    case 0: return new (where) Lin(k, p, 1.f);
    case 1: return new (where) Quad(k, p, 2.f, 3.f);
    case 2: return new (where) Wrap<int>(k, (int)p);
    default: return new (where) Wrap<double>(k, p);
  }
}
