#include <cute/tensor.hpp>
__device__ float biases[128];
__device__ float bias_of(int i) { return biases[i & 127]; }
// A small CuTe copy kernel: a tile of global memory staged in shared memory.
__global__ void stage(const float *in, float *out) {
  using namespace cute;
  __shared__ float smem[32 * 8];
  auto g = make_tensor(make_gmem_ptr(in), make_shape(Int<32>{}, Int<8>{}));
  auto s = make_tensor(make_smem_ptr(smem), make_shape(Int<32>{}, Int<8>{}));
  auto o = make_tensor(make_gmem_ptr(out), make_shape(Int<32>{}, Int<8>{}));
  for (int j = 0; j < 8; ++j) s(threadIdx.x, j) = g(threadIdx.x, j);
  __syncthreads();
  for (int j = 0; j < 8; ++j) o(threadIdx.x, j) = s(31 - threadIdx.x, j) * bias_of(j);
}
