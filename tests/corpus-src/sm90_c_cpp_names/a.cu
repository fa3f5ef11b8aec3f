// C linkage and C++ (mangled) names: overloads, namespaces, templates, a struct member.
extern "C" __device__ __noinline__ int c_helper(int x) { return x + 1; }

namespace geo {
__device__ __noinline__ float area(float r) { return 3.14159f * r * r; }
__device__ __noinline__ float area(float w, float h) { return w * h; }
struct Box {
    float w, h;
    __device__ __noinline__ float volume(float d) const { return w * h * d; }
};
}

template <typename T> __device__ __noinline__ T twice(T v) { return v + v; }

extern "C" __global__ void c_kernel(int *p) { p[threadIdx.x] = c_helper(p[threadIdx.x]); }

__global__ void cpp_kernel(float *p, double *d)
{
    geo::Box b{p[0], p[1]};
    p[threadIdx.x] = geo::area(p[2]) + geo::area(p[3], p[4]) + b.volume(p[5]) + twice(p[6]);
    d[threadIdx.x] = twice(d[threadIdx.x]);
}

template <int N> __global__ void templ_kernel(int *p) { p[threadIdx.x] = N * c_helper(p[0]); }
template __global__ void templ_kernel<3>(int *);
template __global__ void templ_kernel<7>(int *);
