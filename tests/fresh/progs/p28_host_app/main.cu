#include "kernels.cuh"
#include <cuda_runtime.h>
void blas_run(float* p);
__device__ float g_dev_state;
int main() {
  float *x, *y; cudaMalloc(&x, 1024 * 4); cudaMalloc(&y, 1024 * 4);
  fill<float><<<4, 256>>>(x, 1.f, 1024);
  fill<int><<<4, 256>>>((int*)y, 0, 1024);
  scale<float><<<4, 256>>>(x, 2.f, 1024);
  saxpy<<<4, 256>>>(2.f, x, y, 1024);
  blas_run(x);
  float h; cudaMemcpyFromSymbol(&h, g_dev_state, sizeof(h));
  void* args[] = {&x};
  cudaLaunchKernel((const void*)scale<double>, 1, 1, args, 0, 0);
  return 0;
}
