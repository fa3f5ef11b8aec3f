extern __device__ float big_aligned[100];
__device__ alignas(32) short shorts[9];
__constant__ float cb[9] = {0};
__global__ void kb(float *o) { o[1] = big_aligned[3] + shorts[2] + cb[4]; }
