#pragma once
#include <cuda/std/cstring>
#include <cuda/std/type_traits>

using UnaryOp = float (*)(float);

// a small type-erased callable (as nvstd::function would be; this toolkit ships no
// <nvfunctional>): an invoker function pointer per stored lambda type, inline storage
class Callback {
  using Invoke = float (*)(const void*, float, int);
  alignas(8) unsigned char buf_[24];
  Invoke invoke_ = nullptr;
  template <class F>
  __device__ static float call(const void* p, float x, int k) { return (*static_cast<const F*>(p))(x, k); }

 public:
  __device__ Callback() {}
  template <class F, class = cuda::std::enable_if_t<!cuda::std::is_same_v<cuda::std::decay_t<F>, Callback>>>
  __device__ Callback(F f) {
    static_assert(sizeof(F) <= sizeof(buf_), "callable too large");
    cuda::std::memcpy(buf_, &f, sizeof(F));
    invoke_ = &call<F>;
  }
  __device__ explicit operator bool() const { return invoke_ != nullptr; }
  __device__ float operator()(float x, int k) const { return invoke_(buf_, x, k); }
};

// functions defined in ops.cu
__device__ float op_square(float);
__device__ float op_rsqrt(float);
__device__ float op_softplus(float);
__device__ float op_gelu(float);
// a table of function pointers initialised statically in table.cu from ops.cu's functions
extern __device__ UnaryOp g_unary[4];
extern __device__ const char* g_unary_names[4];
// a run-time table filled by a kernel with lambdas converted to function pointers
extern __device__ UnaryOp g_dyn[4];

__device__ float apply_chain(const Callback* cbs, int n, float x);
__device__ Callback make_scaled(UnaryOp op, float scale);

template <typename F>
__global__ void map_kernel(float* d, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = f(d[i], i);
}
void run_maps(float* d, int n);
