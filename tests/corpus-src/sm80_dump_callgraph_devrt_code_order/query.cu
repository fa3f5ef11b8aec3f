#include <cstdio>
__device__ int query_sms() {
  int dev = -1, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  return sms;
}
__global__ void report(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = query_sms();
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, (const void*)report);
    out[1] = fa.numRegs;
    int nb = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, report, 128, 0); out[2] = nb;
  }
}
