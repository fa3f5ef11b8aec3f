#include <cstdio>
__device__ __noinline__ void say1(int v) { printf("tu1 value %d\n", v); printf("shared text\n"); }
__global__ void k1(int *o) { say1(o[0]); printf("kernel 1 %f\n", (double)o[1]); }
