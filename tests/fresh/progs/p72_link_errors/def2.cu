__device__ int f(int x){ return x*7; }
__device__ int g_shared_var = 11;
__constant__ float ctab[16] = {4,5,6};
