// kq calls f (which calls a.cu's init1) and a.cu's g; kz calls f.
#include <cstdint>
#include <cstdio>
__device__ __noinline__ void init1(uint64_t *bp, int *op);
__device__ __noinline__ void g(uint64_t *bp, int *op);
__device__ __noinline__ void f(uint64_t *bp, int *op);
__device__ __noinline__ void f(uint64_t *bp, int *op) { init1(bp+1, op); }
__global__ void kq(int *o) { __shared__ uint64_t bar[4]; uint64_t *bp = bar; int *op = o; f(bp+1, op); g(bp+1, op); o[1] = 1; }
__global__ void kz(int *o) { __shared__ uint64_t bar[4]; uint64_t *bp = bar; int *op = o; f(bp+1, op); o[1] = 1; }
