// A small whole program: two TUs, cross-TU call, dead code, globals, constants,
// static shared memory, a function-pointer table and two kernels.
extern __device__ float blend(float a, float b);
extern __device__ int g_hits;
extern __constant__ float c_weights[4];

__device__ float g_bias = 0.25f;
__constant__ int c_mode = 3;

__device__ __noinline__ float pick(int i, const float *p) { return p[i & 3] * c_weights[i & 3]; }
__device__ __noinline__ float never_called(float x) { return x * 1234.0f; }

__global__ void stage_one(float *out, const float *in)
{
    __shared__ float tile[128];
    tile[threadIdx.x & 127] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = blend(tile[(threadIdx.x + 1) & 127], pick(threadIdx.x, in)) + g_bias + c_mode;
    atomicAdd(&g_hits, 1);
}

__global__ void stage_two(int *count) { count[0] = g_hits; }
