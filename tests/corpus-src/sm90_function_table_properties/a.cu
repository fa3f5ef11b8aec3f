typedef int (*fn_t)(int);
__device__ __noinline__ int heavy(int x) { volatile int buf[64]; for (int i = 0; i < 64; ++i) buf[i] = x + i; int s = 0; for (int i = 0; i < 64; ++i) s += buf[(i * 7) & 63]; return s; }
__device__ __noinline__ int light(int x) { return x + 1; }
__device__ fn_t table[2] = { heavy, light };
__global__ void k(int* o, int i) { o[0] = table[i & 1](o[1]); }
__global__ void k2(int* o) { o[0] = light(o[1]); }
