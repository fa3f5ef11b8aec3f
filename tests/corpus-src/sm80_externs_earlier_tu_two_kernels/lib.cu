#include <cstdio>
#include <cstdlib>
#include <cassert>
__device__ __noinline__ int La(int x) {
  printf("v%d\n", x);
  assert(x != 12345);
  return x;
}
__device__ __noinline__ int Lb(int x) {
  { int* q=(int*)malloc(8); if(q) x+=*q; free(q); }
  { int* q=new int[2]; x+=q[0]; delete[] q; }
  return x;
}
__device__ __noinline__ int Lc(int x) {
  assert(x != 12345);
  { int* q=new int[2]; x+=q[0]; delete[] q; }
  return x;
}