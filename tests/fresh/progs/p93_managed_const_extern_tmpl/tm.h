#pragma once
struct Cell { int key; float w[3]; };
extern __managed__ Cell cells[64];
extern __managed__ unsigned long long ticks[4];
extern __constant__ float coef[256];
extern __constant__ int2 ranges[16];
template <typename T> __constant__ T bias[8];
template <typename T> struct Acc {
  T sum;
  __device__ void add(T v);
  __device__ T scaled(int i) const;
};
template <typename T> __device__ T dot3(const T* a, const T* b);
extern template struct Acc<float>;
extern template struct Acc<double>;
extern template struct Acc<int>;
extern template __device__ float dot3<float>(const float*, const float*);
extern template __device__ double dot3<double>(const double*, const double*);
