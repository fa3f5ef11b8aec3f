#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
float sort_and_sum(int n) {
  thrust::device_vector<float> v(n);
  thrust::sequence(v.begin(), v.end());
  thrust::sort(v.begin(), v.end(), thrust::greater<float>());
  return thrust::reduce(v.begin(), v.end());
}
