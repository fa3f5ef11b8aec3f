template <class T> __device__ T zc;
template <class T> __device__ T ic = T(3);
template <class T> __constant__ T cc[2] = {T(1), T(2)};
