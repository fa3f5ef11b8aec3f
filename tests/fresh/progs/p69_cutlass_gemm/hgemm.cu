#include <cutlass/gemm/device/gemm.h>
#include <cutlass/numeric_types.h>

__device__ float scales[64];
__device__ float scale_of(int i) { return scales[i & 63]; }

// The same SIMT float GEMM as sgemm.cu (the kernel template meets itself across the TUs).
using Sgemm = cutlass::gemm::device::Gemm<float, cutlass::layout::RowMajor, float,
                                          cutlass::layout::ColumnMajor, float,
                                          cutlass::layout::RowMajor>;
cudaError_t run_sgemm2(int m, int n, int k, const float *A, const float *B, float *C) {
  Sgemm op;
  Sgemm::Arguments args({m, n, k}, {A, k}, {B, k}, {C, n}, {C, n}, {1.f, 0.f});
  return op(args) == cutlass::Status::kSuccess ? cudaSuccess : cudaErrorUnknown;
}

#if ARCH >= 800
using Hgemm = cutlass::gemm::device::Gemm<
    cutlass::half_t, cutlass::layout::RowMajor, cutlass::half_t, cutlass::layout::ColumnMajor,
    float, cutlass::layout::RowMajor, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<128, 128, 32>, cutlass::gemm::GemmShape<64, 64, 32>,
    cutlass::gemm::GemmShape<16, 8, 16>>;
#elif ARCH >= 750
using Hgemm = cutlass::gemm::device::Gemm<
    cutlass::half_t, cutlass::layout::RowMajor, cutlass::half_t, cutlass::layout::ColumnMajor,
    float, cutlass::layout::RowMajor, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm75,
    cutlass::gemm::GemmShape<128, 128, 32>, cutlass::gemm::GemmShape<64, 64, 32>,
    cutlass::gemm::GemmShape<16, 8, 8>>;
#endif
cudaError_t run_hgemm(int m, int n, int k, const cutlass::half_t *A, const cutlass::half_t *B,
                      float *C) {
  Hgemm op;
  typename Hgemm::Arguments args({m, n, k}, {A, k}, {B, k}, {C, n}, {C, n}, {1.f, 0.f});
  return op(args) == cutlass::Status::kSuccess ? cudaSuccess : cudaErrorUnknown;
}
