__device__ int where_a(const void *p) { return __isGlobal(p) + 2 * __isConstant(p); }
__global__ void ka(const int *p, int *o) { o[0] = where_a(p); }
