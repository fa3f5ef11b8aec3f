#include "cplx.h"
__constant__ cuda::std::array<cf, 64> c_twiddle = {cf(1.f, 0.f), cf(0.f, -1.f), cf(-1.f, 0.f), cf(0.f, 1.f)};
__device__ __noinline__ void radix4(cf *data, int stride) {
  cf a = data[0], b = data[stride], c = data[2 * stride], d = data[3 * stride];
  cf t0 = a + c, t1 = a - c, t2 = b + d, t3 = (b - d) * cf(0.f, -1.f);
  int k = threadIdx.x & 63;
  data[0] = t0 + t2;
  data[stride] = (t1 + t3) * c_twiddle[k];
  data[2 * stride] = (t0 - t2) * c_twiddle[(2 * k) & 63];
  data[3 * stride] = (t1 - t3) * c_twiddle[(3 * k) & 63];
}
