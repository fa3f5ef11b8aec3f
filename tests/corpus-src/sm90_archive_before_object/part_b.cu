__device__ int b_global = 17;
__device__ __noinline__ int part_b(int x) { return x - b_global; }
__global__ void kernel_in_unreferenced_member(int *p) { p[0] = part_b(p[0]); }
