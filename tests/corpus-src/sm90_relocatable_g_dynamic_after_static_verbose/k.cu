__global__ void k(float *o) {
  __shared__ unsigned long long bar;
  extern __shared__ __align__(16) float4 buf[];
  if (threadIdx.x == 0) bar = 1; __syncthreads();
  buf[threadIdx.x] = make_float4(o[0], bar, 0, 0); __syncthreads();
  o[threadIdx.x] = buf[threadIdx.x ^ 1].x;
}
