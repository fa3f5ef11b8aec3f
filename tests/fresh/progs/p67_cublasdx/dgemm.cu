#include <cublasdx.hpp>
using namespace cublasdx;
using GEMM = decltype(Size<16, 16, 16>() + Precision<double>() + Type<type::real>() + Function<function::MM>() + Block() + BlockDim<64>() + SM<ARCH>());
__device__ void scale_out(float *c, float s) { c[threadIdx.x] *= s; }
__global__ void __launch_bounds__(64) dgemm_kernel(const double *a, const double *b, double *c) {
  extern __shared__ __align__(16) char smem[];
  auto [sa, sb, sc] = cublasdx::slice_shared_memory<GEMM>(smem);
  auto ga = cublasdx::make_tensor(a, GEMM::get_layout_gmem_a());
  auto gb = cublasdx::make_tensor(b, GEMM::get_layout_gmem_b());
  auto gc = cublasdx::make_tensor(c, GEMM::get_layout_gmem_c());
  auto ta = cublasdx::make_tensor(sa, GEMM::get_layout_smem_a());
  auto tb = cublasdx::make_tensor(sb, GEMM::get_layout_smem_b());
  auto tc = cublasdx::make_tensor(sc, GEMM::get_layout_smem_c());
  cublasdx::copy<GEMM, 16>(ga, ta); cublasdx::copy<GEMM, 16>(gb, tb); cublasdx::copy<GEMM, 16>(gc, tc);
  cublasdx::copy_wait();
  GEMM().execute(1.0, ta, tb, 0.0, tc);
  __syncthreads();
  cublasdx::copy<GEMM, 16>(tc, gc);
}
