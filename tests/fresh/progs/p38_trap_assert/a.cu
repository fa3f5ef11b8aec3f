#include <cassert>
__device__ __noinline__ void check(int v) { assert(v >= 0); if (v > 1000) __trap(); }
__global__ void ka(int *o) { check(o[0]); if (o[1] == 77) __brkpt(); o[2] = 1; }
