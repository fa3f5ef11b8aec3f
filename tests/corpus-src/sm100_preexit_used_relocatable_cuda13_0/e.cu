__device__ __noinline__ int trig(int *p, int v) { p[v] = 1; asm volatile("griddepcontrol.launch_dependents;"); return p[v + 1] * 3 + v; }
__device__ __noinline__ int mid(int *p, int v) { return trig(p, v + 1) * 5; }
__device__ __noinline__ int other(int *p, int v) { return p[v] * 7; }
__global__ void k_calls_mid(int *o) { o[threadIdx.x] = mid(o, threadIdx.x); }
__global__ void k_calls_other(int *o) { o[threadIdx.x] = other(o, threadIdx.x); }
