#pragma once
#include <cstdint>

struct Span { unsigned long long t0_ns, t1_ns; long long c0, c1; unsigned smid, warp; };
extern __device__ Span g_spans[256];
extern __device__ unsigned g_span_count;

__device__ unsigned long long global_ns();
__device__ unsigned sm_id();
__device__ void span_begin(Span& s);
__device__ void span_end(Span& s);
__device__ void backoff(unsigned attempt);
__device__ void dump_spans(int n);
__device__ float work(const float* __restrict__ a, float* __restrict__ b, int n, int k);
