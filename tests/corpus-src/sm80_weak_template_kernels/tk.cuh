template <typename T> __global__ void tk(T* p, T v) { p[threadIdx.x] += v; }
