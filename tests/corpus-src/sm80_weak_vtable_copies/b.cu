#include "v.cuh"
struct D2 : B { __device__ int f() const override { return 3; } };
__device__ D2 d2; __device__ B b2;
__device__ B* objs_b[2] = { &d2, &b2 };
__global__ void kb(int* o, int i) { o[0] = objs_b[i & 1]->f() + objs_b[i & 1]->g(); }
