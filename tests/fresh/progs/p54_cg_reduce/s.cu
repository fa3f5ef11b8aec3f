#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename T> __global__ void k_scan(T *d) {
  extern __shared__ unsigned char raw[];
  T *s = reinterpret_cast<T *>(raw);
  auto b = cg::this_thread_block();
  s[threadIdx.x] = d[threadIdx.x]; b.sync();
  for (int o = 1; o < blockDim.x; o <<= 1) { T x = threadIdx.x >= o ? s[threadIdx.x - o] : T(0); b.sync(); s[threadIdx.x] += x; b.sync(); }
  d[threadIdx.x] = s[threadIdx.x];
}
template __global__ void k_scan<int>(int *);
template __global__ void k_scan<double>(double *);
