#include <cstdio>
#include <cstdlib>
__device__ int q(int x) { printf("q\n"); return x; }
static __device__ int s(int x) { return (int)(long)malloc(x); }
__global__ void k(int* o) { o[0]=q(1); o[1]=s(2); }
