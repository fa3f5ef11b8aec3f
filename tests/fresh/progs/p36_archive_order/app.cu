__device__ int m1_fn(int);
extern __device__ int m2_data;
template <typename T> __device__ __noinline__ T tw(T v) { return v + T(3); }
__global__ void app_kernel(int *o) { o[1] = m1_fn(o[2]) + m2_data + tw(o[3]); }
