#include "e.cuh"
__device__ int V::eval() const { return i * 2; }
