#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <cuda/barrier>
#include <cuda/std/bit>

extern __device__ cuda::std::atomic<int> ticket;
extern __device__ cuda::std::array<int, 8> weights;
__device__ int take_ticket();

__device__ cuda::std::optional<int> pick(cuda::std::span<const int> s, int i) {
  if (i < 0 || static_cast<size_t>(i) >= s.size()) return cuda::std::nullopt;
  return s[i] * cuda::std::popcount(static_cast<unsigned>(i));
}

__global__ void waiters(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int stage[128];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  stage[threadIdx.x] = take_ticket() + weights[threadIdx.x & 7];
  bar.arrive_and_wait();
  auto t = cuda::std::make_tuple(stage[(threadIdx.x + 1) & 127], ticket.load());
  out[threadIdx.x] = cuda::std::get<0>(t) + cuda::std::get<1>(t);
}
