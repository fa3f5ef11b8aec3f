// Kernel in one TU calling a function defined in another; both TUs carry dead code.
extern __device__ int scale(int x);
extern __device__ int offset(int x);

__device__ __noinline__ int unused_in_main(int x) { return x * 7 + 3; }

__global__ void apply(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = offset(scale(data[i]));
}
