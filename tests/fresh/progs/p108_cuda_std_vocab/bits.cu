#include "vocab.h"
#include <cstdio>

__device__ unsigned long long g_masks[16];
__device__ int g_errors[4];

__device__ vs::bitset<64> live_mask(StridedMatrix m, float threshold) {
  vs::bitset<64> b;
  for (int i = 0; i < m.extent(0); ++i)
    for (int j = 0; j < m.extent(1); ++j)
      if (m(i, j) > threshold) b.set((i * m.extent(1) + j) & 63);
  return b;
}

__device__ __noinline__ int log_site(vs::string_view tag, vs::source_location loc) {
  printf("%.*s at %s:%u (%s)\n", (int)tag.size(), tag.data(), loc.file_name(), (unsigned)loc.line(),
         loc.function_name());
  return (int)loc.line();
}

__global__ void mask_kernel(float* d, int rows, int cols, int ld) {
  vs::array<int, 2> strides{ld, 1};
  StridedMatrix m(d, vs::layout_stride::mapping<vs::dextents<int, 2>>(vs::dextents<int, 2>(rows, cols), strides));
  auto b = live_mask(m, 0.5f);
  g_masks[blockIdx.x & 15] = b.to_ullong();
  if (b.none()) log_site("empty mask");
  Tile t(d);
  if (threadIdx.x == 0) g_masks[0] ^= (unsigned long long)trace(t);
}
