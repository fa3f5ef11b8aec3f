__device__ __noinline__ float ewr_sum(const float* p, int n) { float s = 0.f; for (int i = 0; i < n; ++i) s += p[i]; return s; }
__device__ __noinline__ float ewr_prod(const float* p, int n) { float s = 1.f; for (int i = 0; i < n; ++i) s *= p[i]; return s; }
__device__ __noinline__ int ewr_bump(int x) { return x * 3 + 1; }
// A loop in the kernel itself: the stack-pointer load is flushed at the loop's entry.
__global__ void ewr_loop(const float* p, float* o, int n) { float s = 0.f; for (int i = 0; i < n; ++i) s += p[i] * p[i]; o[blockIdx.x] = s; }
// Two calls into the internal functions.
__global__ void ewr_two_calls(const float* p, float* o, int n) { o[blockIdx.x] = ewr_sum(p, n) + ewr_prod(p, n); }
// A load consumed after a call: scoreboard 5.
__global__ void ewr_load_across_call(int* o) { o[4] = o[5] + ewr_bump(o[6]) + ewr_bump(o[7]); }
// Straight-line: keeps ptxas's words.
__global__ void ewr_straight(float* o, const float* p) { o[threadIdx.x] = p[threadIdx.x] * 2.f; }
