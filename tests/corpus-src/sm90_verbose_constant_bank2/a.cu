__device__ double ext_poly(double x);
__device__ int ext_pick(int k, int v);
template <typename T> __device__ __noinline__ T tconst(T x) { return x * T(1.2345678912345) + T(6.5432198765432); }
__device__ __noinline__ double dead_fn(double x) { return x * 9.999999999999; }
__global__ void ka(double *d, int *o) { d[0] = ext_poly(d[1]) * 0.333333333333333 + tconst<double>(d[2]); o[0] = ext_pick(o[1], 2); }
__global__ void ka2(double *d) { d[0] = tconst<double>(d[1]); }
