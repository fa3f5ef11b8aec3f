__device__ int f(int x){ return x*3; }
__device__ int g_shared_var = 7;
__constant__ float ctab[16] = {1,2,3};
