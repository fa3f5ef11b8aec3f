#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/count.h>
struct odd { __host__ __device__ bool operator()(int x) const { return x & 1; } };
int run2(int n) { thrust::device_vector<int> v(n, 3); thrust::inclusive_scan(v.begin(), v.end(), v.begin()); return thrust::count_if(v.begin(), v.end(), odd()); }
