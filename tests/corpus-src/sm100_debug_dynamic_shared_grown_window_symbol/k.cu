// One `extern __shared__` name read from three places: a kernel's own code, a function only a
// kernel with 400 static bytes calls, a function only a kernel with 4 static bytes calls.
extern __shared__ int dyn[];
__device__ __noinline__ int after_big(int i) { return dyn[i] + 1; }
__device__ __noinline__ int after_small(int i) { return dyn[i] * 3; }
__global__ void big(int* o) {
  __shared__ int s[100];
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = after_big(s[99 - threadIdx.x]);
}
__global__ void small(int* o) {
  __shared__ int hits;
  if (threadIdx.x == 0) hits = 0;
  __syncthreads();
  atomicAdd(&hits, o[threadIdx.x]);
  __syncthreads();
  o[threadIdx.x] = after_small(hits);
}
__global__ void own(int* o) { o[threadIdx.x] = dyn[threadIdx.x ^ 1]; }
