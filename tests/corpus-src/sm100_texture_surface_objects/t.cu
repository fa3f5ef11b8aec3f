// Bindless textures and surfaces: texture/surface objects passed as kernel parameters.
__device__ __noinline__ float4 sample(cudaTextureObject_t tex, float u, float v)
{
    return tex2D<float4>(tex, u, v);
}
__global__ void read_texture(cudaTextureObject_t tex, cudaTextureObject_t tex1d, float4 *out)
{
    out[threadIdx.x] = sample(tex, threadIdx.x * 0.5f, blockIdx.x * 0.5f);
    out[threadIdx.x].x += tex1Dfetch<float>(tex1d, threadIdx.x);
}
__global__ void write_surface(cudaSurfaceObject_t surf, int w)
{
    float v = threadIdx.x;
    surf2Dwrite(v, surf, (threadIdx.x % w) * sizeof(float), threadIdx.x / w);
    float back;
    surf2Dread(&back, surf, 0, 0);
    surf2Dwrite(back + 1.0f, surf, 4, 0);
}
