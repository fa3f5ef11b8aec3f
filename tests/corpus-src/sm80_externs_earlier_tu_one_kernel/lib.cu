#include <cstdio>
#include <cstdlib>
#include <cassert>
__device__ __noinline__ int La(int x) {
  { int* q=new int[2]; x+=q[0]; delete[] q; }
  printf("v%d\n", x);
  return x;
}
__device__ __noinline__ int Lb(int x) {
  
  return x;
}
__device__ __noinline__ int Lc(int x) {
  { int* q=(int*)malloc(8); if(q) x+=*q; free(q); }
  return x;
}