// 68 static bytes and a 16-aligned extern __shared__ array.
__global__ void kb(float *out) {
  extern __shared__ float4 dynk[];
  __shared__ float st[17];
  st[threadIdx.x % 17] = out[threadIdx.x];
  dynk[threadIdx.x].x = out[1];
  __syncthreads();
  out[threadIdx.x] = st[(17 - 1) - threadIdx.x % 17] + dynk[0].x;
}
