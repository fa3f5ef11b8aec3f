// 20 static bytes and a 16-aligned extern __shared__ array.
__global__ void ka(float *out) {
  extern __shared__ float4 dynk[];
  __shared__ float st[5];
  st[threadIdx.x % 5] = out[threadIdx.x];
  dynk[threadIdx.x].x = out[1];
  __syncthreads();
  out[threadIdx.x] = st[(5 - 1) - threadIdx.x % 5] + dynk[0].x;
}
