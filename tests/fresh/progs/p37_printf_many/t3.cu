#include <cstdio>
__device__ __noinline__ void say3(int v) { printf("tu3 value %d\n", v); printf("shared text\n"); }
__global__ void k3(int *o) { say3(o[0]); printf("kernel 3 %f\n", (double)o[1]); }
