#include <cstdio>
// printf calls vprintf (an external the driver provides) with a format string in .nv.global.init.
__device__ __noinline__ void report(int v) { printf("value %d from thread %d\n", v, threadIdx.x); }
__global__ void print_kernel(int v)
{
    printf("hello from block %d\n", blockIdx.x);
    report(v);
}
