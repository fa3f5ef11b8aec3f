__device__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
__device__ int is_even(unsigned n);
__device__ int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
__device__ int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
__global__ void parity(unsigned* v) { v[threadIdx.x] = is_even(v[threadIdx.x]); }
