// level0 -> level1 -> ... -> level7, each with its own local frame.
#define LEVEL(n, next)                                                        \
    __device__ __noinline__ int level##n(volatile int *p, int v)             \
    {                                                                         \
        int frame[4 + n];                                                     \
        for (int i = 0; i < 4 + n; ++i) frame[i] = p[i] + v;                  \
        return next + frame[v & (3 + n)];                                     \
    }
__device__ __noinline__ int level8(volatile int *p, int v) { return p[v & 3]; }
LEVEL(7, level8(p, v + 1))
LEVEL(6, level7(p, v + 1))
LEVEL(5, level6(p, v + 1))
LEVEL(4, level5(p, v + 1))
LEVEL(3, level4(p, v + 1))
LEVEL(2, level3(p, v + 1))
LEVEL(1, level2(p, v + 1))
LEVEL(0, level1(p, v + 1))
