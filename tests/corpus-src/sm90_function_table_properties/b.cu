extern __device__ int (*table[2])(int);
__device__ __noinline__ int other(int x) { volatile int b2[8]; b2[x&7]=x; return b2[(x+1)&7] + printf("x"); }
__global__ void kb(int* o) { o[0] = table[0](o[1]); }
