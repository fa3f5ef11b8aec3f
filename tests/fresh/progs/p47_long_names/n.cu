template <int A, int B, int C> struct Deep { template <typename X> struct Inner { template <typename Y> struct More {}; }; };
template <typename T> __device__ __noinline__ int probe(T *) { return sizeof(T); }
#define L1(n) Deep<n, n + 1, n + 2>::Inner<Deep<n, n, n>>::More<Deep<n + 3, n + 4, n + 5>::Inner<int>>
template <typename T> __global__ void named(int *o) { o[threadIdx.x] = probe<T>(nullptr); }
template __global__ void named<L1(1)>(int *);
template __global__ void named<Deep<1,2,3>::Inner<L1(7)>::More<L1(9)>>(int *);
template __global__ void named<Deep<4,5,6>::Inner<Deep<1,2,3>::Inner<L1(11)>::More<L1(13)>>::More<L1(15)>>(int *);
