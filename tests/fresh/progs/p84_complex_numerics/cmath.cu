#include "cplx.h"
#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/cmath>
#include <thrust/complex.h>
#include <cuComplex.h>
__device__ cd g_accum{1.0, -1.0};
__device__ __noinline__ cf cmul_exp(cf a, cf b) {
  cf e = cuda::std::exp(a * b);
  cf l = cuda::std::log(a + cf(1.f, 0.f));
  thrust::complex<float> t(a.real(), a.imag());
  t = thrust::pow(t, thrust::complex<float>(b.real(), b.imag()));
  cuFloatComplex q = cuCmulf(make_cuFloatComplex(e.real(), e.imag()), make_cuFloatComplex(l.real(), l.imag()));
  return cf(cuCrealf(q) + t.real(), cuCimagf(q) + t.imag()) + cuda::std::polar(cuda::std::abs(b), cuda::std::arg(a));
}
__device__ __noinline__ cd cpoly(cd z, int deg) {
  cd r(1.0, 0.0);
  for (int k = 0; k < deg; ++k) r = r * z + cd(k, -k);
  cuDoubleComplex w = cuCdiv(make_cuDoubleComplex(r.real(), r.imag()), make_cuDoubleComplex(1.0, 2.0));
  return cuda::std::sqrt(cd(cuCreal(w), cuCimag(w))) + cuda::std::pow(z, 2.5) + g_accum;
}
__device__ __noinline__ cuda::std::complex<__half> hmul(cuda::std::complex<__half> a, cuda::std::complex<__half> b) {
  return a * b + a / b;
}
__device__ __noinline__ cuda::std::complex<__nv_bfloat16> bmul(cuda::std::complex<__nv_bfloat16> a, cuda::std::complex<__nv_bfloat16> b) {
  return a * b - cuda::std::conj(b);
}
__device__ __noinline__ float numeric_mix(float x, double y) {
  unsigned bits = cuda::std::bit_cast<unsigned>(x);
  int lz = cuda::std::countl_zero(bits) + cuda::std::popcount(bits) + cuda::std::bit_width(bits);
  float eps = cuda::std::numeric_limits<float>::epsilon();
  double lo = cuda::std::numeric_limits<double>::lowest();
  return (float)cuda::std::hypot(x, y) + cuda::std::fma(x, eps, (float)lz) +
         (float)cuda::std::fmax(lo, y) + cuda::std::bit_ceil(bits & 0xffu) + (float)cuda::std::lerp(x, (float)y, 0.25f);
}
