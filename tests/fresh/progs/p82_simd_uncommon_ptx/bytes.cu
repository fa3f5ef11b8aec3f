#include "bytes.h"
__device__ __noinline__ unsigned sad_bytes(unsigned a, unsigned b) {
  unsigned d = __vabsdiffu4(a, b);
  unsigned s = __vadd4(d, __vcmpgtu4(a, b));
  s = __vmaxu4(s, __vsub4(a, b));
  return __sad(a, b, s) + __vhaddu4(a, b);
}
__device__ __noinline__ int dot_bytes(int a, int b, int c) {
  return __dp4a(a, b, c) + __dp2a_lo(a, b, c) + __dp2a_hi((unsigned)a, (unsigned)b, (unsigned)c);
}
__device__ __noinline__ unsigned shuffle_bytes(unsigned a, unsigned b, unsigned sel) {
  unsigned r = __byte_perm(a, b, sel);
  r ^= __funnelshift_l(a, b, sel & 31) + __funnelshift_rc(b, a, sel);
  return r + __fns(a, sel & 31, 1) + __clz(b) + __ffs(a);
}
__device__ __noinline__ unsigned long long rot_rev(unsigned long long x, unsigned s) {
  return __brevll(x) ^ (x << (s & 63)) ^ __popcll(x) ^ __mul64hi(x, 0x9E3779B97F4A7C15ull);
}
__device__ __noinline__ unsigned ptx_mix(unsigned a, unsigned b, unsigned c) {
  unsigned r, q, p, t;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(q) : "r"(a | 1));
  asm("lop3.b32 %0, %1, %2, %3, 0xb4;" : "=r"(p) : "r"(a), "r"(b), "r"(c));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(t) : "r"(a), "r"(b), "r"(c));
  unsigned m, z;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(m) : "r"(a & 31), "r"(b & 31));
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(z) : "r"(c), "r"(b & 31));
  unsigned f;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(f) : "r"(a), "r"(b & 31), "r"(1));
  return r + q + p + t + m + z + f;
}
__device__ __noinline__ unsigned warp_stats(unsigned v) {
  unsigned act, bal, sum, mx, anyeq;
  asm volatile("activemask.b32 %0;" : "=r"(act));
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
               : "=r"(bal) : "r"(v & 1), "r"(act));
#if __CUDA_ARCH__ >= 800
  asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(sum) : "r"(v), "r"(act));
  asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(mx) : "r"(v), "r"(act));
#else
  sum = __shfl_xor_sync(act, v, 1); mx = __shfl_down_sync(act, v, 2);
#endif
  anyeq = __match_any_sync(act, v >> 4);
  unsigned lm, smid;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  unsigned red = 0;
#if __CUDA_ARCH__ >= 800
  red = __reduce_or_sync(act, v) + __reduce_min_sync(act, v) + __reduce_xor_sync(act, v);
#endif
  return bal + sum + mx + anyeq + __popc(lm & bal) + smid + red;
}
__device__ __noinline__ float ptx_float(float x, float y) {
  float c; unsigned tf, isnan;
  asm("copysign.f32 %0, %1, %2;" : "=f"(c) : "f"(y), "f"(x));
#if __CUDA_ARCH__ >= 800
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(tf) : "f"(x));
#else
  tf = __float_as_uint(x) & 0xffffe000u;
#endif
  asm("{ .reg .pred p; testp.notanumber.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(isnan) : "f"(y));
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x));
  return c + __uint_as_float(tf) + (float)isnan + e + __frsqrt_rn(y) + __fdividef(x, y);
}
__device__ __noinline__ unsigned long long stamp() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  __nanosleep(100);
  return t + clock64();
}
