#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
__global__ void sort_tiles(unsigned* keys, float* vals) {
  using Sort = cub::BlockRadixSort<unsigned, 128, 4, float>;
  using Load = cub::BlockLoad<unsigned, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
  __shared__ union { typename Sort::TempStorage s; typename Load::TempStorage l; } tmp;
  unsigned k[4]; float v[4];
  Load(tmp.l).Load(keys + blockIdx.x * 512, k);
  __syncthreads();
  for (int i = 0; i < 4; ++i) v[i] = vals[blockIdx.x * 512 + threadIdx.x * 4 + i];
  Sort(tmp.s).SortBlockedToStriped(k, v);
  for (int i = 0; i < 4; ++i) { keys[blockIdx.x * 512 + i * 128 + threadIdx.x] = k[i]; vals[blockIdx.x * 512 + i * 128 + threadIdx.x] = v[i]; }
}
