extern __shared__ float ex[];
__device__ __noinline__ float gx(int i) { return ex[i]; }
