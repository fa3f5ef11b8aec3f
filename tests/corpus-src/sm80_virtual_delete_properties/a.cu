#include "v.cuh"
struct D1 : B { __device__ int f() const override { return 2; } };
__global__ void ka(int* o) { B* b = new D1; o[0] = b->f(); delete b; }
