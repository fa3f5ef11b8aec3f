extern __shared__ int dyn[];
__device__ int f1(int i) { return dyn[i] + 1; }
__device__ int f2(int i) { return dyn[i] * 2; }
typedef int (*fn)(int);
__device__ fn table[2] = {f1, f2};
__global__ void big(int* o) {
  __shared__ int s[100];
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = table[o[0]](s[99 - threadIdx.x]);
}
__global__ void small(int* o) {
  __shared__ int hits;
  if (threadIdx.x == 0) hits = 0;
  __syncthreads();
  atomicAdd(&hits, o[threadIdx.x]);
  __syncthreads();
  o[threadIdx.x] = table[1](hits) + dyn[3];
}
