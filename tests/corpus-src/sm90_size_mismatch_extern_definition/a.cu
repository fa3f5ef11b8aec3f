extern __constant__ int ctab[16];
__global__ void k(int *o) { o[threadIdx.x] = ctab[threadIdx.x & 15] + ctab[3]; }
