template <typename T> __device__ __noinline__ T clampv(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
__device__ int dead_fn_c(int x) { return clampv<double>(x, 0.0, 3.0); }
__device__ int (*g_fp_c)(int) = dead_fn_c;
__global__ void dead_kernel_c(int* o) { o[0] = g_fp_c(o[0]); }
