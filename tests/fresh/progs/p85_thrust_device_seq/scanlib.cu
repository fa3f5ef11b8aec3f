#include "algos.h"
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/extrema.h>
#include <thrust/sort.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/execution_policy.h>
struct above { float cut; __device__ bool operator()(float x) const { return x > cut; } };
struct axpy { __device__ float operator()(thrust::tuple<float, int> t) const { return thrust::get<0>(t) * 0.5f + thrust::get<1>(t); } };
__device__ __noinline__ float scan_row(float *row, int n) {
  thrust::inclusive_scan(thrust::seq, row, row + n, row);
  auto z = thrust::make_zip_iterator(thrust::make_tuple(row, thrust::counting_iterator<int>(0)));
  thrust::transform(thrust::seq, z, z + n, row, axpy());
  thrust::sort(thrust::seq, row, row + n);
  return thrust::reduce(thrust::seq, row, row + n);
}
__device__ __noinline__ int compact_row(const float *row, float *out, int n, float cut) {
  float *e = thrust::copy_if(thrust::seq, row, row + n, out, above{cut});
  thrust::exclusive_scan(thrust::seq, out, e, out, 1.0f);
  return (int)(e - out);
}
__device__ __noinline__ thrust::tuple<float, float> minmax_row(const float *row, int n) {
  auto mm = thrust::minmax_element(thrust::seq, row, row + n);
  return thrust::make_tuple(*mm.first, *mm.second);
}
