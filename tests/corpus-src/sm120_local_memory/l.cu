// Local memory: a dynamically indexed local array, and register spills forced by -maxrregcount.
__device__ __noinline__ int local_array(int n, const int *in)
{
    int buf[64];
    for (int i = 0; i < 64; ++i) buf[i] = in[i] * i;
    return buf[n & 63] + buf[(n * 7) & 63];
}

__global__ void spill(const float *in, float *out)
{
    float acc[48];
#pragma unroll
    for (int i = 0; i < 48; ++i) acc[i] = in[i * blockDim.x + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int i = 0; i < 48; ++i) s += acc[i] * acc[(i + j) % 48];
    out[threadIdx.x] = s;
}

__global__ void uses_local_array(const int *in, int *out) { out[threadIdx.x] = local_array(threadIdx.x, in); }
