// Declares everything the other two files define.
extern __device__ int f(int);
extern __device__ int counter;
extern __constant__ float ctab[16];
__global__ void k(int *o) { o[threadIdx.x] = f(threadIdx.x) + counter + (int)ctab[threadIdx.x & 15]; }
