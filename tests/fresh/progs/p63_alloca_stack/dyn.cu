#include <alloca.h>
__device__ __noinline__ int sum_dyn(const int *src, int n) {
  int *tmp = (int *)alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) tmp[i] = src[i] * 3;
  int s = 0;
  for (int i = n - 1; i >= 0; i--) s += tmp[i] ^ i;
  return s;
}
__device__ __noinline__ int fixed_local(int seed) {
  int arr[48];
  for (int i = 0; i < 48; i++) arr[i] = seed + i * i;
  return arr[seed % 48] + arr[(seed * 5) % 48];
}
__device__ __noinline__ int rec_dyn(int d, const int *src) {
  if (d <= 0) return fixed_local(d);
  char *b = (char *)alloca(d * 16);
  for (int i = 0; i < d * 16; i++) b[i] = (char)(src[i & 7] + i);
  return b[d] + rec_dyn(d - 1, src);
}
