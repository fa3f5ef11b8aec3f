// a second fx (conflicts with x/m.o's when both are pulled) next to conf_only
#include "lib.h"
__device__ __noinline__ float fx(float v) { return v + 100.f; }
__device__ __noinline__ float conf_only(float v) { return fx(v) * 2.f; }
