extern __device__ int level0(volatile int *p, int v);
extern __device__ int level5(volatile int *p, int v);
__global__ void deep_kernel(int *p) { p[0] = level0(p, threadIdx.x); }
__global__ void middle_kernel(int *p) { p[0] = level5(p, threadIdx.x); }
