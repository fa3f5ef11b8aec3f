#pragma once
#include <cuda/std/mdspan>
#include <cuda/std/variant>
#include <cuda/std/expected>
#include <cuda/std/bitset>
#include <cuda/std/inplace_vector>
#include <cuda/std/optional>
#include <cuda/std/string_view>
#include <cuda/std/source_location>
#include <cuda/std/tuple>
#include <cuda/std/array>

namespace vs = cuda::std;

using Matrix = vs::mdspan<float, vs::dextents<int, 2>>;
using StridedMatrix = vs::mdspan<float, vs::dextents<int, 2>, vs::layout_stride>;
using Tile = vs::mdspan<float, vs::extents<int, 4, 8>>;

struct Add { float v; };
struct Scale { float v; };
struct Clamp { float lo, hi; };
using Op = vs::variant<Add, Scale, Clamp>;

enum class Err : int { out_of_range = 1, empty = 2, nan = 3 };

// header templates: weak copies in every TU that uses them
template <class M>
__device__ float trace(const M& m) {
  float s = 0.f;
  for (int i = 0; i < m.extent(0) && i < m.extent(1); ++i) s += m(i, i);
  return s;
}
struct Apply {
  float x;
  __device__ float operator()(const Add& a) const { return x + a.v; }
  __device__ float operator()(const Scale& s) const { return x * s.v; }
  __device__ float operator()(const Clamp& c) const { return fminf(fmaxf(x, c.lo), c.hi); }
};
template <cuda::std::size_t N>
__device__ vs::expected<float, Err> checked_mean(const vs::inplace_vector<float, N>& v) {
  if (v.empty()) return vs::unexpected<Err>(Err::empty);
  float s = 0.f;
  for (float x : v) s += x;
  float m = s / v.size();
  if (m != m) return vs::unexpected<Err>(Err::nan);
  return m;
}

// defined in ops.cu
__device__ float run_ops(const Op* ops, int n, float x);
__device__ vs::expected<float, Err> safe_at(Matrix m, int i, int j);
__device__ vs::optional<vs::tuple<int, int>> argmax(Matrix m);
// defined in bits.cu
__device__ vs::bitset<64> live_mask(StridedMatrix m, float threshold);
__device__ int log_site(vs::string_view tag, vs::source_location loc = vs::source_location::current());
extern __device__ unsigned long long g_masks[16];
extern __device__ int g_errors[4];
