extern "C" __device__ int from_ptx(int x) { return x + 17; }
