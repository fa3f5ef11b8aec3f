#include "ops.h"
__device__ float Add::operator()(float a, float b) const { return a + b + bias; }
template <class T> __device__ bool operator<(const V<T>& a, const V<T>& b) { return a.x < b.x; }
template <class T> __device__ bool operator!=(const V<T>& a, const V<T>& b) { return a.x != b.x; }
template __device__ bool operator< <int>(const V<int>&, const V<int>&);
template __device__ bool operator!= <long long>(const V<long long>&, const V<long long>&);
__device__ V<int> operator-(const V<int>& a, const V<int>& b) { return V<int>{a.x - b.x}; }
__device__ char pool[256];
__device__ void* operator new(size_t n, Tag* t) { return pool + (t->n++ & 7) * 32; }
__device__ void operator delete(void* p, Tag* t) { t->n--; }
__device__ int& Arr::operator[](int i) { return v[i & 3]; }
__device__ Arr& Arr::operator+=(int k) { for (int i = 0; i < 4; ++i) v[i] += k; return *this; }
