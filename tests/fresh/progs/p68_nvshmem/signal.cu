#include <nvshmem.h>
#include <nvshmemx.h>
__device__ int reduce_partner(int *sym, int v) {
  int me = nvshmem_my_pe();
  int g = nvshmem_int_g(sym, (me + 1) % nvshmem_n_pes());
  nvshmem_int_atomic_add(sym, v, 0);
  return g + nvshmem_int_atomic_fetch(sym, 0);
}
__global__ void sig(uint64_t *flag, float *buf, int n) {
  int me = nvshmem_my_pe();
  nvshmemx_float_put_signal_nbi_warp(buf, buf + n, n, flag, 1, NVSHMEM_SIGNAL_ADD, (me + 1) % nvshmem_n_pes());
  nvshmem_signal_wait_until(flag, NVSHMEM_CMP_GE, 1);
  nvshmem_quiet();
}
