template <typename T> __global__ void tks(T* p, T v) { __shared__ T tile[64]; __shared__ T tile2[32]; tile[threadIdx.x] = p[threadIdx.x] + v; tile2[threadIdx.x & 31] = v; __syncthreads(); p[threadIdx.x] = tile[63 - threadIdx.x] + tile2[threadIdx.x&31]; }
template <typename T> __device__ T helper(T x) { return x * 3; }
template <typename T> __global__ void tkc(T* p) { p[threadIdx.x] = helper(p[threadIdx.x]); }
