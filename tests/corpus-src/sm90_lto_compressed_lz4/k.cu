extern __device__ float shade(float x, int i);
extern __device__ int table[64];
template <typename T> __device__ T mix(T a, T b) { return a * 3 + b; }
__global__ void kfloat(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = shade(in[i], i) + mix(in[i], 2.0f);
}
__global__ void kint(int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = mix(table[i & 63], i);
}
