__device__ __noinline__ int pick(int k, int v) {
  switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2;
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
}
__device__ __noinline__ double poly(double x) { return x * 3.14159265358979 + 2.718281828459045; }
__device__ __noinline__ double outer(double x) { return poly(x) * 1.4142135623730951 + pick((int)x, 3); }
__global__ void k_own8_pick(int *o, double *d) { o[0] = pick(o[1], 2); d[0] = d[1] * 1.2345678901234; }
__global__ void k_own24_pick(int *o, double *d) { o[0] = pick(o[1], 5); d[0] = d[1] * 1.2345678901234 + d[2] * 9.87654321 + d[3] * 5.5555555555555; }
__global__ void k_none_pick(int *o) { o[0] = pick(o[1], 7); }
__global__ void k_outer(double *d) { d[0] = outer(d[1]); }
__global__ void k_poly_then_pick(int *o, double *d) { d[0] = poly(d[1]); o[0] = pick(o[2], 1); }
