__global__ void k_big_static(float* out) {
  __shared__ double tile[32][33];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x * 1.0;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
