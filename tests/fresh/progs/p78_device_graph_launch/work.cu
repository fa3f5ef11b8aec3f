// The kernels the scheduler starts and the counter it counts down.
#include <cuda_runtime.h>
__device__ int work_left = 4;

__global__ void process(float* data, int chunk) {
  int i = chunk * 512 + blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = data[i] * 2.f + 1.f;
}

__global__ void finish(float* data, int n) {
  __shared__ float s[256];
  float acc = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += data[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int o = 128; o; o >>= 1) { if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o]; __syncthreads(); }
  if (threadIdx.x == 0) data[n] = s[0];
}
