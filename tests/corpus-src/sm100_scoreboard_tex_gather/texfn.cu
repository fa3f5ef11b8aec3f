__device__ float4 bilinear(cudaTextureObject_t t, float u, float v) { return tex2D<float4>(t, u, v); }
__global__ void gather1d(cudaTextureObject_t t, float* out, int n) { int i = threadIdx.x; if (i < n) out[i] = tex1Dfetch<float>(t, i) + tex1D<float>(t, i * 0.5f); }
__global__ void layered(cudaTextureObject_t t, float* out) { out[threadIdx.x] = tex2DLayered<float>(t, 0.5f, 0.5f, threadIdx.x) + tex3D<float>(t, 0.1f, 0.2f, 0.3f); }
