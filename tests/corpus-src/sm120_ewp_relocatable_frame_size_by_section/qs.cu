__device__ void quicksort(int* a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) { while (a[i] < p) ++i; while (a[j] > p) --j; if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; } }
  quicksort(a, lo, j); quicksort(a, i, hi);
}
__global__ void sort_rows(int* m, int w) {
  int local[64];
  for (int i = 0; i < w && i < 64; ++i) local[i] = m[threadIdx.x * w + i];
  quicksort(local, 0, (w < 64 ? w : 64) - 1);
  for (int i = 0; i < w && i < 64; ++i) m[threadIdx.x * w + i] = local[i];
}
