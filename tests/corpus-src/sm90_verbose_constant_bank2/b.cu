template <typename T> __device__ __noinline__ T tconst(T x) { return x * T(1.2345678912345) + T(6.5432198765432); }
__device__ __noinline__ int ext_pick(int k, int v) {
  switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2;
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
}
__device__ __noinline__ double ext_poly(double x) { return x * 2.718281828459045 + 1.4142135623730951; }
__global__ void kb(double *d, int *o) { d[0] = tconst<double>(d[1]) * 7.777777777777; o[0] = ext_pick(o[1], 4); }
