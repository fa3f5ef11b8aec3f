__device__ int m3_fn(int x) { return x - 7; }
template <typename T> __device__ __noinline__ T tw(T v) { return v + T(3); }
__global__ void lib_kernel(int *o) { o[0] = tw(o[0]); }
