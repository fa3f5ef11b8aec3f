extern "C" __device__ __noinline__ int patch_fn(int x, int *p) { p[0] += x; return x * 3; }
extern "C" __device__ __noinline__ int patch_fn2(int x) { return x ^ 0x55; }
