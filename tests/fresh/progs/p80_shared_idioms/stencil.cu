// Static and dynamic shared memory in one kernel, an aligned extern __shared__ byte buffer
// carved into two arrays, 2-D static tiles, and the other TU's templates and table.
#include "smem.h"
#define TILE 16
__global__ void stencil2d(const float* in, float* out, int w, int h, int which) {
  __shared__ float tile[TILE + 2][TILE + 3];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y + 1][threadIdx.x + 1] = (x < w && y < h) ? in[y * w + x] : 0.f;
  __syncthreads();
  float c = tile[threadIdx.y + 1][threadIdx.x + 1];
  float v = combiners[which & 1](tile[threadIdx.y][threadIdx.x + 1] + tile[threadIdx.y + 2][threadIdx.x + 1], c);
  float total = block_sum<float>(v);
  if (x < w && y < h) out[y * w + x] = v / (total + 1.f);
}

__global__ void carve(const int* keys, const float* vals, float* out, int n) {
  extern __shared__ __align__(16) unsigned char raw[];
  int* k = reinterpret_cast<int*>(raw);
  float4* v = reinterpret_cast<float4*>(raw + ((n * sizeof(int) + 15) & ~15));
  __shared__ int hits;
  if (threadIdx.x == 0) hits = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) { k[i] = keys[i]; v[i / 4] = reinterpret_cast<const float4*>(vals)[i / 4]; }
  __syncthreads();
  if (k[threadIdx.x % n] > 0) atomicAdd(&hits, 1);
  __syncthreads();
  out[blockIdx.x] = v[0].x * hits + block_sum<int>(k[threadIdx.x % n]);
}

__global__ void dsum(const double* in, double* out) {
  double r = block_sum<double>(in[threadIdx.x]);
  double* s = SharedMemory<double>();
  if (threadIdx.x == 0) out[0] = r + s[1];
}
