// PTX side: kernels and device functions using the objects' data and callback
#include <cstdio>
extern __device__ int shared_counter;
extern __device__ float lut[32];
__device__ float app_callback(float v);
__constant__ float kcoef[16] = {1, .5f, .25f, .125f};
__device__ __noinline__ float kern_scale(float v, int i) {
  float acc = 0.f;
  for (int k = 0; k < 16; ++k) acc += kcoef[k] * __sinf(v + k);
  if (i == 0) printf("kern_scale %f %d\n", acc, shared_counter);
  return app_callback(acc) + lut[i & 31];
}
__global__ void kern_fill(float* out, int n) {
  __shared__ float tile[128];
  tile[threadIdx.x] = kern_scale(threadIdx.x, threadIdx.x);
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = tile[(threadIdx.x + i) & 127];
}
