#include <cstdio>
__device__ __noinline__ void say2(int v) { printf("tu2 value %d\n", v); printf("shared text\n"); }
__global__ void k2(int *o) { say2(o[0]); printf("kernel 2 %f\n", (double)o[1]); }
