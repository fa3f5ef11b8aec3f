#include "e2.cuh"
__device__ int V::eval() const { return i * 2; }
__device__ float V::fval(float x) const { return x * i; }
__device__ E* make(int i) { return new V(i); }
