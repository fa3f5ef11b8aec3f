#include "wide.h"
#include <cstdio>

__global__ void parent(const long long* a, const long long* b, int n, i128* out) {
  if (threadIdx.x != 0) return;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaError_t e = launch_dot(a, b, n, out, s);
  if (e != cudaSuccess) printf("launch_dot: %d\n", (int)e);
  child_mul<<<1, 32, 0, s>>>(~0ull, 3ull);
  cudaStreamDestroy(s);
  Pair want{1, 2};
  if (!try_swap_pair(&g_pair, Pair{0, 0}, want)) printf("pair already set\n");
}

int main() { return 0; }
