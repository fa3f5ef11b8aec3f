// built with -maxrregcount=32
__device__ float shared_helper(float x, int k);
__global__ void limited(double* v) {
  double a = v[threadIdx.x], b = a * 2, c = a * 3, d = a * 5;
  for (int i = 0; i < 16; ++i) { a = a * b + c; b = b * c + d; c = c * d + a; d = d * a + b; }
  v[threadIdx.x] = a + b + c + d + shared_helper((float)a, 2);
}
