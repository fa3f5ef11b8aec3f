__device__ __noinline__ int pa(int k, int v) {
  switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2;
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
}
__device__ __noinline__ int pb(int k, int v) {
  switch (k) { case 0: return v + 11; case 1: return v * 13; case 2: return v - 17; case 3: return v ^ 19; case 4: return v << 3;
    case 5: return v >> 2; case 6: return v | 15; case 7: return v & 16; case 8: return -v * 2; case 9: return v % 7; case 10: return v / 3; default: return 1; }
}
__device__ __noinline__ int pc(int k, int v) {
  switch (k) { case 0: return v + 21; case 1: return v * 23; case 2: return v - 27; case 3: return v ^ 29; case 4: return v << 4;
    case 5: return v >> 3; case 6: return v | 25; case 7: return v & 26; case 8: return -v * 3; default: return 2; }
}
__device__ __noinline__ double poly(double x) { return x * 3.14159265358979 + 2.718281828459045; }
__global__ void k_tables(int *o) { o[0] = pa(o[1], 2) + pb(o[2], 3) + pc(o[3], 4); }
__global__ void k_own_tables(int *o, double *d) { o[0] = pa(o[1], 2) + pb(o[2], 3); d[0] = d[1] * 1.2345678901234; }
__global__ void k_poly_tables(int *o, double *d) { d[0] = poly(d[1]); o[0] = pc(o[2], 1) + pb(o[3], 5); }
__device__ __noinline__ int pd(int k, int v) {
  switch (k) { case 0: return v + 31; case 1: return v * 33; case 2: return v - 37; case 3: return v ^ 39; case 4: return v << 5;
    case 5: return v >> 4; case 6: return v | 35; case 7: return v & 36; case 8: return -v * 4; case 9: return v % 9; default: return 3; }
}
__global__ void k_lonely(int *o) { o[0] = pd(o[1], 6); }
