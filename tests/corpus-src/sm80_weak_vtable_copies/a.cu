#include "v.cuh"
struct D1 : B { __device__ int f() const override { return 2; } };
__device__ D1 d1; __device__ B b1;
__device__ B* objs_a[2] = { &d1, &b1 };
__global__ void ka(int* o, int i) { o[0] = objs_a[i & 1]->f() + objs_a[i & 1]->g(); }
