__device__ __noinline__ int pick(int k, int v) {
  switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2;
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
}
__device__ const double coeffs[12] = {1.5, 2.25, 3.125, 4.0625, 5.5, 6.75, 7.875, 8.5, 9.25, 10.125, 11.0625, 12.5};
__global__ void ks(int *o, double *d) { o[threadIdx.x] = pick(o[threadIdx.x] % 11, threadIdx.x); d[threadIdx.x] = coeffs[threadIdx.x % 12] * 1.000001; }
__global__ void kd(double *d) { double x = d[0]; d[1] = x * 3.14159265358979 + 2.718281828459045 - 1.4142135623730951 * x * x; }
