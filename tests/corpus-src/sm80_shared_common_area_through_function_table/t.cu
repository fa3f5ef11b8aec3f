__device__ int f1(int i) { __shared__ int arr[64]; arr[i & 63] = i; __syncthreads(); return arr[(i + 1) & 63]; }
__device__ int f2(int i) { __shared__ float fa[16]; fa[i & 15] = i; __syncthreads(); return fa[3]; }
__device__ __noinline__ int direct(int i) { __shared__ char cc[40]; cc[i % 40] = i; __syncthreads(); return cc[1]; }
typedef int (*fn)(int);
__device__ fn table[2] = {f1, f2};
__global__ void big(int* o) {
  __shared__ int s[100];
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = table[o[0]](s[99 - threadIdx.x]) + direct(o[1]);
}
__global__ void small(int* o) {
  __shared__ int hits;
  if (threadIdx.x == 0) hits = 0;
  __syncthreads();
  atomicAdd(&hits, o[threadIdx.x]);
  __syncthreads();
  o[threadIdx.x] = table[1](hits);
}
__global__ void plain(int* o) { o[0] = direct(o[2]); }
