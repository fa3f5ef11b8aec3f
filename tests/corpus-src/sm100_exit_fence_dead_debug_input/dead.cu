__device__ __noinline__ float unused_dbg(float x) { return x * 7.f; }
