namespace { __device__ __noinline__ int helper(int x) { return x * 3; } __device__ int hidden = 11; }
static __device__ __noinline__ int twice(int x) { return 2 * x; }
static __global__ void worker(int *o) { o[0] = helper(o[1]) + twice(hidden); }
extern "C" __device__ __noinline__ int c_api(int x) { return x + 100; }
__global__ void launch_a(int *o) { worker<<<1, 1>>>(o); o[2] = c_api(helper(1)); }
void host_a(int *o) { worker<<<1, 1>>>(o); }
