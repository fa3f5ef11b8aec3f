#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;
template <typename T> __device__ __noinline__ T tile_sum(cg::thread_block_tile<32> t, T v) { return cg::reduce(t, v, cg::plus<T>()); }
template <typename T> __global__ void k_red(const T *in, T *out) {
  auto t = cg::tiled_partition<32>(cg::this_thread_block());
  T v = tile_sum(t, in[threadIdx.x]);
  if (t.thread_rank() == 0) { cuda::atomic_ref<T, cuda::thread_scope_device> a(*out); a.fetch_add(v); }
}
template __global__ void k_red<int>(const int *, int *);
template __global__ void k_red<float>(const float *, float *);
template __global__ void k_red<double>(const double *, double *);
