// A kernel launching a graph from the device and setting a graph conditional: both are bound by
// the driver, not by libcudadevrt, so the link needs no library.
#include <cuda_runtime.h>
__global__ void relaunch(cudaGraphExec_t g, cudaGraphConditionalHandle h, int* left) {
  if (atomicSub(left, 1) > 1) cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
  else cudaGraphSetConditional(h, 0);
}
