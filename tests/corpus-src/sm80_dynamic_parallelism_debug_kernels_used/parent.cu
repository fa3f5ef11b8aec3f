#include <cstdio>
__global__ void child_fill(int* d, int n, int v);
__global__ void child_sum(const int* d, int n, int* out);
__global__ void parent(int* d, int n, int* out) {
  if (threadIdx.x == 0) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    child_fill<<<(n + 127) / 128, 128, 0, s>>>(d, n, blockIdx.x);
    child_sum<<<1, 256, 256 * sizeof(int), cudaStreamTailLaunch>>>(d, n, out);
    cudaStreamDestroy(s);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("launch failed: %s\n", cudaGetErrorString(e));
  }
}
