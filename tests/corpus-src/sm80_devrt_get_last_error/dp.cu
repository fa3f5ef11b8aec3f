#include <cstdio>
__global__ void child(int* d) { d[threadIdx.x] = 1; }
__global__ void parent(int* d) {
  child<<<1, 32>>>(d);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("x %d\n", (int)e);
}
