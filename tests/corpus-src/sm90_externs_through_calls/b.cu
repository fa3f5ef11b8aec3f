#include <cstdlib>
__device__ void g(int *p);
__device__ __noinline__ void f(int *p) { int *q = (int*)malloc(4); g(q); p[0] = q[0]; }
