#define SW(k, v) switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2; \
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
__device__ __noinline__ int pick(int k, int v) { SW(k, v) }
__device__ __noinline__ int pick2(int k, int v) { switch (k) { case 0: return v + 11; case 1: return v * 13; case 2: return v - 17; case 3: return v ^ 19; case 4: return v << 3;
    case 5: return v >> 3; case 6: return v | 15; default: return 1; } }
__device__ int unused(int k, int v) { SW(k, v) }
__global__ void ka(int *o) { o[0] = pick(o[1], 2) + pick2(o[2], 3); int k = o[3], v = o[4]; o[5] = [&]() -> int { SW(k, v) }(); }
__global__ void kb(int *o) { o[0] = pick2(o[1], 5); }
__global__ void kd(int *o) { o[0] = pick(o[1], 2); }
