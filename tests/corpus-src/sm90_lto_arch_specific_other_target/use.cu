extern __device__ int f(int);
extern __device__ int g_shared_var;
extern __constant__ float ctab[16];
__global__ void k(int *o){ o[threadIdx.x] = f(threadIdx.x) + g_shared_var + (int)ctab[threadIdx.x&15]; }
