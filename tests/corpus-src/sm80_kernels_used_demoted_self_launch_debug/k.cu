__global__ void rec(int *p, int n) {
  if (n > 0) rec<<<1, 1>>>(p, n - 1);
  p[0] = n;
}
__global__ void sel(int *p) { p[0] = 1; }
