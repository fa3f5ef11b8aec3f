#include "tm.h"
template <typename T> __device__ void Acc<T>::add(T v) { sum += v * bias<T>[(int)v & 7]; atomicAdd(&ticks[0], 1ull); }
template <typename T> __device__ T Acc<T>::scaled(int i) const { return sum * (T)coef[i & 255] + bias<T>[i & 7]; }
template <typename T> __device__ T dot3(const T* a, const T* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
template struct Acc<float>;
template struct Acc<double>;
template struct Acc<int>;
template __device__ float dot3<float>(const float*, const float*);
template __device__ double dot3<double>(const double*, const double*);
template __constant__ float bias<float>[8];
template __constant__ double bias<double>[8];
template __constant__ int bias<int>[8];
