#include <cstdio>
#include <cstdlib>
__device__ __noinline__ void g(int *p) { printf("%d\n", p[0]); free(p); }
