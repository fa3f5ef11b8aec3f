#include <cassert>
__device__ void check(int v);
__global__ void kb(int *o) { check(o[3]); assert(o[4] != 5 && "five"); }
