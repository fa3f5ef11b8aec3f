// Device-side work scheduling: a kernel that launches a CUDA graph from the device (fire and
// forget and tail launch), child kernels into the fire-and-forget and tail-launch named streams,
// and a self-relaunching tail kernel; the graph handle arrives as a __grid_constant__ parameter.
#include <cuda_runtime.h>
#include <cstdio>

extern __device__ int work_left;                   // work.cu
__global__ void process(float* data, int chunk);   // work.cu
__global__ void finish(float* data, int n);        // work.cu

__global__ void scheduler(const __grid_constant__ cudaGraphExec_t g, float* data, int chunks) {
  if (threadIdx.x != 0) return;
  for (int c = 0; c < chunks; ++c) process<<<4, 128, 0, cudaStreamFireAndForget>>>(data, c);
  cudaError_t e = cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
  if (e != cudaSuccess) printf("graph launch failed: %d\n", (int)e);
  if (atomicSub(&work_left, 1) > 1) scheduler<<<1, 32, 0, cudaStreamTailLaunch>>>(g, data, chunks);
  else finish<<<1, 256, 0, cudaStreamTailLaunch>>>(data, chunks * 512);
}

__global__ void relaunch_graph(cudaGraphExec_t g, int times) {
  if (times > 0 && cudaGraphLaunch(g, cudaStreamGraphTailLaunch) == cudaSuccess)
    relaunch_graph<<<1, 1, 0, cudaStreamTailLaunch>>>(g, times - 1);
}

__global__ void sibling(float* data) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  process<<<1, 128, 0, s>>>(data, blockIdx.x);
  cudaStreamDestroy(s);
}
