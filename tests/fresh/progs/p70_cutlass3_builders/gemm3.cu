// CUTLASS 3.x GEMM built with the collective builders (TMA + warpgroup MMA on sm_90a,
// tcgen05 UMMA on sm_100a), run through GemmUniversalAdapter as a user does.
#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/util/packed_stride.hpp>
using namespace cute;

using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using ElementC = float;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutC = cutlass::layout::ColumnMajor;
constexpr int AlignA = 8, AlignB = 8, AlignC = 4;
#if ARCH >= 1000
using Arch = cutlass::arch::Sm100;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _1, _1>;
#else
using Arch = cutlass::arch::Sm90;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_2, _1, _1>;
#endif

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementC, LayoutC, AlignC,
    ElementC, LayoutC, AlignC, cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, AlignA, ElementB, LayoutB, AlignB,
    float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
        sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;

using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>,
                                                        CollectiveMainloop, CollectiveEpilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

__device__ float bias_of(int i);  // defined in other.cu

cudaError_t run_gemm(int m, int n, int k, const ElementA *A, const ElementB *B, float *C) {
  auto sA = cutlass::make_cute_packed_stride(typename GemmKernel::StrideA{}, {m, k, 1});
  auto sB = cutlass::make_cute_packed_stride(typename GemmKernel::StrideB{}, {n, k, 1});
  auto sC = cutlass::make_cute_packed_stride(typename GemmKernel::StrideC{}, {m, n, 1});
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                {m, n, k, 1},
                                {A, sA, B, sB},
                                {{1.f, 0.f}, C, sC, C, sC}};
  Gemm gemm;
  if (gemm.initialize(args, nullptr) != cutlass::Status::kSuccess) return cudaErrorUnknown;
  return gemm.run() == cutlass::Status::kSuccess ? cudaSuccess : cudaErrorUnknown;
}

__global__ void add_bias(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] += bias_of(i);
}
