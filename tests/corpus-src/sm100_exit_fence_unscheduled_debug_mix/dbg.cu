__device__ __noinline__ float dbg_scale(float x) { float t = x * 1.5f; return t + 0.25f; }
__global__ void k_dbg(float *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = dbg_scale(o[i]); }
