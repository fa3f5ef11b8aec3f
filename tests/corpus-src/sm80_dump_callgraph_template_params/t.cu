template <typename T> __device__ __noinline__ int probe(T *p) { return sizeof(T) + (p != nullptr); }
template <typename A, typename B> __device__ __noinline__ A both(A a, B b, const B &c, A *d) { return a + (A)b + (A)c + *d; }
template <typename T, int N> __device__ __noinline__ T arr(T (&x)[N]) { return x[N - 1]; }
struct S { int v; };
__global__ void k(int *o, float *f) { int a[3] = {1, 2, 3}; o[0] = probe<S>(nullptr) + probe(o) + both(1, 2.0f, 3.0f, o) + arr(a); f[0] = both(1.0, 2, 3, (double *)nullptr); }
