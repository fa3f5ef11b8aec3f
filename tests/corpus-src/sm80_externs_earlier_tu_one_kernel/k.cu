#include <cstdio>
#include <cstdlib>
#include <cassert>
__device__ int La(int);
__device__ int Lb(int);
__device__ int Lc(int);
__global__ void K(int* o) { int x=o[0];
  x += Lc(x);
  assert(x != 12345);
  x += Lb(x);
  x += La(x);
  o[1]=x; }