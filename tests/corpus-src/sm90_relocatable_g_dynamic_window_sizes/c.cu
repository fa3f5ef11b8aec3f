// 16 static bytes and a 16-aligned extern __shared__ array.
__global__ void kc(float *out) {
  extern __shared__ float4 dynk[];
  __shared__ float st[4];
  st[threadIdx.x % 4] = out[threadIdx.x];
  dynk[threadIdx.x].x = out[1];
  __syncthreads();
  out[threadIdx.x] = st[(4 - 1) - threadIdx.x % 4] + dynk[0].x;
}
