extern "C" __device__ int c_helper(int x);
namespace other {
__global__ void kernel_in_namespace(int *p) { p[1] = c_helper(p[0]); }
}
extern "C" __global__ void c_kernel_b(long long *p) { p[0] = c_helper((int)p[1]); }
