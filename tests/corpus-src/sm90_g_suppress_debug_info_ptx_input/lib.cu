typedef float (*combine_fn)(float, float);
__device__ float add(float a, float b) { return a + b; }
__device__ float mul(float a, float b) { return a * b; }
__device__ combine_fn g_ops[2] = {add, mul};

__device__ int g_hits;
__constant__ float c_weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};

__device__ __noinline__ float blend(float a, float b) { return g_ops[a > b](a, b); }
__device__ __noinline__ float unused_in_lib(float a) { return a - 1.0f; }
