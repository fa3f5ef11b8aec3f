#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/functional.h>
struct sq { __host__ __device__ double operator()(double x) const { return x * x * 0.5772156649015329; } };
double run1(int n) { thrust::device_vector<double> v(n, 1.0); thrust::transform(v.begin(), v.end(), v.begin(), sq()); thrust::sort(v.begin(), v.end()); return thrust::reduce(v.begin(), v.end()); }
