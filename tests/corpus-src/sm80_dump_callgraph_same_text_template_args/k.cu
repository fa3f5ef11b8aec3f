// Template arguments of the same text: nvlink names each parameter by its mangled reference.
template <class A, class B, class C>
__device__ __noinline__ A fetch_add(A *p, B v, int order, C tag) { A old = *p; *p = old + (A)v + (A)order + (A)sizeof(tag); return old; }

struct tag_t { int x; };

__global__ void k(unsigned *p, unsigned long *q, int *r) {
  p[1] = fetch_add<unsigned, unsigned, tag_t>(p, 3u, 1, tag_t{});
  q[1] = fetch_add<unsigned long, unsigned long, tag_t>(q, 5ul, 2, tag_t{});
  r[2] = fetch_add<int, int, tag_t>(r, 7, 3, tag_t{});
}
