extern "C" __device__ int ext_missing(int);
extern "C" __device__ __noinline__ int patch_ext(int x) { return ext_missing(x) + 2; }
