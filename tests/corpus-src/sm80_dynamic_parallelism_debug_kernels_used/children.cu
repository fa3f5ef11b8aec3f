__global__ void child_fill(int* d, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = v + i; }
__global__ void child_sum(const int* d, int n, int* out) {
  extern __shared__ int sm[];
  int s = 0; for (int i = threadIdx.x; i < n; i += blockDim.x) s += d[i];
  sm[threadIdx.x] = s; __syncthreads();
  if (threadIdx.x == 0) { for (int i = 1; i < blockDim.x; ++i) s += sm[i]; *out = s; }
}
__global__ void recursive_split(int* d, int lo, int hi) {
  if (hi - lo < 1024) { for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) d[i] *= 2; return; }
  if (threadIdx.x == 0) { int mid = (lo + hi) / 2; recursive_split<<<1, 64, 0, cudaStreamFireAndForget>>>(d, lo, mid); recursive_split<<<1, 64, 0, cudaStreamFireAndForget>>>(d, mid, hi); }
}
