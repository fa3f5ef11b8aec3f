#include <nvshmem.h>
#include <nvshmemx.h>
__device__ int reduce_partner(int *sym, int v);
__global__ void ring(int *dst, int *src, int n) {
  int me = nvshmem_my_pe(), np = nvshmem_n_pes();
  int peer = (me + 1) % np;
  nvshmemx_int_put_block(dst, src, n, peer);
  nvshmem_fence();
  if (threadIdx.x == 0) nvshmem_int_p(dst + n, me, peer);
  nvshmemx_barrier_all_block();
  dst[threadIdx.x] += reduce_partner(src, dst[threadIdx.x]);
}
