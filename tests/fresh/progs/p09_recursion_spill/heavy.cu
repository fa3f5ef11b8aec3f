// compiled with -maxrregcount=24: forces spills
__device__ int ackermann(int m, int n);
__global__ void heavy_math(const double* in, double* out, int n) {
  double acc[24];
  for (int k = 0; k < 24; ++k) acc[k] = in[(threadIdx.x + k) % n];
  for (int it = 0; it < 8; ++it)
    for (int k = 0; k < 24; ++k) acc[k] = acc[k] * acc[(k + 7) % 24] + acc[(k + 13) % 24] / (1.0 + acc[(k + 3) % 24]);
  double s = 0; for (int k = 0; k < 24; ++k) s += acc[k] * (k + 1);
  out[threadIdx.x] = s + ackermann(2, threadIdx.x & 1);
}
