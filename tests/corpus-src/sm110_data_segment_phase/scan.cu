#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
template <int BLOCK>
__global__ void block_scan(const int* in, int* out) {
  using BS = cub::BlockScan<int, BLOCK>;
  __shared__ typename BS::TempStorage tmp;
  int v = in[blockIdx.x * BLOCK + threadIdx.x], agg;
  BS(tmp).ExclusiveSum(v, v, agg);
  out[blockIdx.x * BLOCK + threadIdx.x] = v + agg;
}
template __global__ void block_scan<128>(const int*, int*);
template __global__ void block_scan<256>(const int*, int*);
__global__ void warp_red(const float* in, float* out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[4];
  float r = WR(tmp[threadIdx.x / 32]).Sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = r;
}
