// Device-side heap: malloc and free are externals resolved by the driver.
__device__ __noinline__ int *make_buffer(int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    for (int i = 0; p && i < n; ++i) p[i] = i;
    return p;
}
__global__ void heap_kernel(int *out, int n)
{
    int *p = make_buffer(n);
    if (p) { out[threadIdx.x] = p[n - 1]; free(p); }
    void *q = malloc(16);
    free(q);
}
