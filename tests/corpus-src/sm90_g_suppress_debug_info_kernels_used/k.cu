// Several kernels sharing device functions, in one TU.
__device__ __noinline__ float square(float v) { return v * v; }
__device__ __noinline__ float cube(float v) { return v * square(v); }

__global__ void k_square(float *p) { p[threadIdx.x] = square(p[threadIdx.x]); }
__global__ void k_cube(float *p) { p[threadIdx.x] = cube(p[threadIdx.x]); }
__global__ void k_both(float *p, float *q)
{
    p[threadIdx.x] = square(q[threadIdx.x]) + cube(p[threadIdx.x]);
}
__global__ void k_empty() {}
