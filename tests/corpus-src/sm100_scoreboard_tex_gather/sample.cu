__device__ float4 bilinear(cudaTextureObject_t t, float u, float v);
__global__ void resample(cudaTextureObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float4 c = bilinear(src, (x + 0.5f) / w, (y + 0.5f) / h);
  surf2Dwrite(make_uchar4(c.x * 255, c.y * 255, c.z * 255, 255), dst, x * 4, y);
}
