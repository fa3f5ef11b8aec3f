namespace { __device__ __noinline__ int helper(int x) { return x - 3; } __device__ int hidden = 22; }
static __device__ __noinline__ int twice(int x) { return x << 1; }
static __global__ void worker(int *o) { o[3] = helper(o[4]) + twice(hidden); }
extern "C" __device__ int c_api(int x);
__global__ void launch_b(int *o) { o[5] = c_api(helper(2)); }
void host_b(int *o) { worker<<<1, 1>>>(o); }
