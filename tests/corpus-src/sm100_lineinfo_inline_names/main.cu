struct V2 { float x, y; };
__device__ inline V2 operator*(V2 a, float s) { return {a.x * s, a.y * s}; }
__device__ float lib_len(V2 v);
__global__ void scale(V2 *v, float s, float *len, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = v[i] * s;
        len[i] = lib_len(v[i]);
    }
}
