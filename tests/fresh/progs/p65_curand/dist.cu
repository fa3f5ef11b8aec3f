#include <curand_kernel.h>
__device__ float draw_normal(curandState *s) { return curand_normal(s) * 0.5f + curand_log_normal(s, 0.f, 1.f); }
__global__ void gen_mrg(curandStateMRG32k3a *st, double *out, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &st[id]);
  out[id] = curand_uniform_double(&st[id]) + curand_poisson(&st[id], 4.0);
}
__global__ void gen_sobol(curandStateSobol32 *st, curandDirectionVectors32_t *dv, float *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(dv[0], id, &st[id]);
  out[id] = curand_uniform(&st[id]);
}
