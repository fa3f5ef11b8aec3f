__constant__ int pad0[37];
__constant__ int ctab[64];
__constant__ long long cbig[8];
extern __device__ int after_fence(int *p, int i);
__global__ void kb(int *p) { p[0] = pad0[p[1]] + after_fence(p, 3); }
