#include <curand_kernel.h>
__device__ float draw_normal(curandState *s);
__global__ void setup(curandState *st, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &st[id]);
}
__global__ void gen_uniform(curandState *st, float *out, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = st[id];
  for (int i = id; i < n; i += gridDim.x * blockDim.x) out[i] = curand_uniform(&local) + draw_normal(&local);
  st[id] = local;
}
__global__ void gen_philox(curandStatePhilox4_32_10_t *st, float4 *out, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &st[id]);
  out[id] = curand_normal4(&st[id]);
}
