#include <cstdio>
#include <cstdlib>
#include <cassert>
__device__ int La(int);
__device__ int Lb(int);
__device__ int Lc(int);
__global__ void K(int* o) { int x=o[0];
  x += Lc(x);
  x += La(x);
  assert(x != 12345);
  { int* q=new int[2]; x+=q[0]; delete[] q; }
  x += Lb(x);
  o[1]=x; }