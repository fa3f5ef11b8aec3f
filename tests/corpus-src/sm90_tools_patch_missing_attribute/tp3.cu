extern "C" __device__ __noinline__ int other_plain(int x) { return x * 11; }
