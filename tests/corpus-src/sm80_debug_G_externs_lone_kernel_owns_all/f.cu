#include <cstdio>
__device__ __noinline__ int f1(int x) { printf("v%d\n", x); return x; }
