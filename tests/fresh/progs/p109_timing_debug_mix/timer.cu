// compiled with -G
#include "prof.h"
#include <cstdio>

__device__ Span g_spans[256];
__device__ unsigned g_span_count;

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ void span_begin(Span& s) {
  s.t0_ns = global_ns();
  s.c0 = clock64();
  s.smid = sm_id();
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  s.warp = w;
}
__device__ void span_end(Span& s) {
  s.c1 = clock64();
  s.t1_ns = global_ns();
  unsigned slot = atomicAdd(&g_span_count, 1u);
  if (slot < 256) g_spans[slot] = s;
}
__device__ void backoff(unsigned attempt) {
  unsigned ns = 32u << (attempt < 10 ? attempt : 10);
  __nanosleep(ns);
}
__device__ void dump_spans(int n) {
  for (int i = 0; i < n && i < 256; ++i) {
    const Span& s = g_spans[i];
    printf("span %3d sm %2u warp %2u: %llu ns, %lld cycles\n", i, s.smid, s.warp, s.t1_ns - s.t0_ns, s.c1 - s.c0);
  }
}
