#include "algos.h"
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <thrust/binary_search.h>
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
__device__ __noinline__ int sort_row(int *keys, float *vals, int n) {
  thrust::sort_by_key(thrust::seq, keys, keys + n, vals, thrust::greater<int>());
  thrust::stable_sort(thrust::seq, vals, vals + n);
  int *end = thrust::unique(thrust::seq, keys, keys + n);
  return (int)(end - keys) + thrust::reduce(thrust::seq, keys, end, 0, thrust::maximum<int>());
}
__device__ __noinline__ thrust::pair<int, int> bounds(const int *sorted, int n, int lo, int hi) {
  const int *a = thrust::lower_bound(thrust::seq, sorted, sorted + n, lo);
  const int *b = thrust::upper_bound(thrust::seq, sorted, sorted + n, hi);
  return thrust::make_pair((int)(a - sorted), (int)(b - sorted));
}
