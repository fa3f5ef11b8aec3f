// compiled plain, or with -Xptxas -O1
#include "prof.h"
#include <cstdio>

__device__ int g_lock;

__global__ void timed_kernel(const float* a, float* b, int n) {
  Span s;
  span_begin(s);
  float acc = work(a, b, n, blockIdx.x);
  // a contended lock with exponential backoff
  if (threadIdx.x == 0) {
    unsigned attempt = 0;
    while (atomicCAS(&g_lock, 0, 1) != 0) backoff(attempt++);
    __threadfence();
    b[n + blockIdx.x] = acc;
    atomicExch(&g_lock, 0);
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) span_end(s);
}

__global__ void report_kernel() {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    printf("%u spans recorded\n", g_span_count);
    dump_spans(8);
  }
}

int main() {
  timed_kernel<<<4, 128>>>(nullptr, nullptr, 256);
  report_kernel<<<1, 32>>>();
  return cudaDeviceSynchronize() != cudaSuccess;
}
