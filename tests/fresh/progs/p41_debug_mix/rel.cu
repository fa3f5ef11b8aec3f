__device__ float dbg_scale(float x);
__device__ __noinline__ float rel_mix(float x) { return dbg_scale(x) * 2.f; }
__global__ void k_rel(float *o) { __shared__ float s[64]; s[threadIdx.x & 63] = rel_mix(o[threadIdx.x]); __syncthreads(); o[threadIdx.x] = s[(threadIdx.x + 1) & 63]; }
