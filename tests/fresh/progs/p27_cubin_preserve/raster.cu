extern __device__ float4 g_bounds;
__device__ float4 project(float4 p);
__device__ unsigned g_tri_count;
__global__ void raster(const float4* v, int n, unsigned* fb, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = project(v[i]);
  atomicMin((int*)&g_bounds.x, __float_as_int(p.x));
  int px = (int)p.x, py = (int)p.y;
  if (px >= 0 && px < w) atomicAdd(&fb[py * w + px], 1u);
  atomicInc(&g_tri_count, 1u << 30);
}
