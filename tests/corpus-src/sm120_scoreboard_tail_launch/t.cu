#include <cstdio>
__global__ void child(int *o, int v) { o[threadIdx.x] += v; }
__global__ void tail_k(int *o) { o[0] = -1; }
__global__ void parent(int *o) {
  if (threadIdx.x == 0) {
    child<<<1, 32, 0, cudaStreamFireAndForget>>>(o, 3);
    tail_k<<<1, 1, 0, cudaStreamTailLaunch>>>(o);
    cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    child<<<1, 32, 0, s>>>(o, 5);
    cudaStreamDestroy(s);
  }
}
