#include <thrust/device_vector.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
struct sq { __host__ __device__ float operator()(float x) const { return x * x; } };
float sum_squares(int n) {
  thrust::device_vector<float> v(n, 1.5f);
  thrust::transform(v.begin(), v.end(), v.begin(), sq());
  thrust::sort(v.begin(), v.end());
  return thrust::reduce(v.begin(), v.end());
}
