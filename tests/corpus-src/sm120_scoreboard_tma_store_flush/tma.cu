#include <cuda.h>
#include <cstdint>
__device__ void mbar_init(uint64_t *bar, unsigned count);
__device__ void mbar_expect(uint64_t *bar, unsigned bytes);
__device__ void mbar_wait(uint64_t *bar, unsigned phase);
__global__ void tma_load(const __grid_constant__ CUtensorMap map, float *out, int x0, int y0) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("prefetch.tensormap [%0];" :: "l"(&map) : "memory");
    mbar_init(&bar, 1);
    mbar_expect(&bar, sizeof(tile));
    unsigned dst = (unsigned)__cvta_generic_to_shared(tile), b = (unsigned)__cvta_generic_to_shared(&bar);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(&map), "r"(x0), "r"(y0), "r"(b) : "memory");
  }
  __syncthreads();
  mbar_wait(&bar, 0);
  out[threadIdx.x] = tile[threadIdx.x] * 2.f;
}
__global__ void tma_store(const __grid_constant__ CUtensorMap map, const float *in, int x0, int y0) {
  __shared__ alignas(128) float tile[32 * 32];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) tile[i] = in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned src = (unsigned)__cvta_generic_to_shared(tile);
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&map), "r"(x0), "r"(y0), "r"(src) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
__global__ void bulk_copy(const float4 *g, float4 *out, unsigned n) {
  extern __shared__ __align__(16) float4 buf[];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_expect(&bar, n * 16);
    unsigned dst = (unsigned)__cvta_generic_to_shared(buf), b = (unsigned)__cvta_generic_to_shared(&bar);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" :: "r"(dst), "l"(g), "r"(n * 16), "r"(b) : "memory");
  }
  __syncthreads();
  mbar_wait(&bar, 0);
  if (threadIdx.x < n) out[threadIdx.x] = buf[threadIdx.x];
}
