template <typename T> __device__ __noinline__ T tw(T v) { return v + T(3); }
__device__ int m4_only(int x) { return tw(x) ^ 5; }
__global__ void unused_kernel(int *o) { o[9] = 9; }
