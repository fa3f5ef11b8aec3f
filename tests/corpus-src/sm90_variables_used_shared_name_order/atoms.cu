// libcu++ across TUs: cuda::std::atomic globals with initializers, cuda::atomic_ref at
// several scopes, cuda::std containers in device code.
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>

__device__ cuda::std::atomic<int> ticket{5};
__device__ cuda::atomic<unsigned long long, cuda::thread_scope_device> total{0};
__device__ cuda::std::array<int, 8> weights = {1, 2, 3, 4, 5, 6, 7, 8};

__device__ cuda::std::optional<int> pick(cuda::std::span<const int> s, int i);  // in use.cu

__device__ int take_ticket() { return ticket.fetch_add(1, cuda::std::memory_order_relaxed); }

__global__ void accumulate(const int *in, int n, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<float, cuda::thread_scope_block> fr(f[blockIdx.x]);
  fr.fetch_add(1.0f);
  cuda::atomic_ref<int, cuda::thread_scope_system> sys(const_cast<int &>(in[0]));
  sys.fetch_max(i);
  auto o = pick(cuda::std::span<const int>(weights.data(), weights.size()), i);
  total.fetch_add(o.value_or(0) + take_ticket());
}
