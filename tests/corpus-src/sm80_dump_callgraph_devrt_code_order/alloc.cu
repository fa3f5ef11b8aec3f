__device__ int query_sms();
__global__ void worker(float* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1.f; }
__global__ void orchestrate(float* dst, int n) {
  if (threadIdx.x) return;
  float* tmp = nullptr;
  if (cudaMalloc(&tmp, n * sizeof(float)) != cudaSuccess) return;
  cudaMemsetAsync(tmp, 0, n * sizeof(float), 0);
  void* args = cudaGetParameterBuffer(64, 16);
  (void)args;
  worker<<<query_sms(), 128, 0, cudaStreamTailLaunch>>>(tmp, n);
  cudaMemcpyAsync(dst, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, 0);
  cudaEvent_t e; cudaEventCreateWithFlags(&e, cudaEventDisableTiming); cudaEventRecord(e, 0); cudaEventDestroy(e);
  cudaFree(tmp);
}
