// Static __shared__ in kernels and in device functions; dynamic (extern) __shared__.
__device__ __noinline__ float reduce_in_function(float v)
{
    __shared__ float scratch[64];
    scratch[threadIdx.x & 63] = v;
    __syncthreads();
    return scratch[(threadIdx.x + 1) & 63];
}

__global__ void static_shared(float *out)
{
    __shared__ float tile[256];
    __shared__ int flag;
    tile[threadIdx.x] = out[threadIdx.x];
    if (threadIdx.x == 0) flag = 1;
    __syncthreads();
    out[threadIdx.x] = tile[255 - threadIdx.x] + flag + reduce_in_function(out[0]);
}

__global__ void dynamic_shared(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

__global__ void both_shared(double *out)
{
    extern __shared__ double dyn2[];
    __shared__ double fixed[32];
    fixed[threadIdx.x & 31] = dyn2[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = fixed[31 - (threadIdx.x & 31)] + dyn2[0];
}
