__global__ void kdbg(int *p) { p[threadIdx.x] = 5; }
