extern "C" __device__ int patch_fn(int x, int *p);
extern "C" __device__ __noinline__ int patch_user(int x, int *p) { return patch_fn(x, p) + 1; }
extern "C" __device__ __noinline__ int patch_ext(int x) { return x + 2; }
__device__ int patch_counter;
extern "C" __device__ __noinline__ void patch_count() { atomicAdd(&patch_counter, 1); }
