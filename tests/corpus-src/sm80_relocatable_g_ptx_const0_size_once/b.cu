__device__ int where_a(const void *p);
__global__ void kb(const int *p, int *o) { o[0] = where_a(p) + __isGlobal(o); }
