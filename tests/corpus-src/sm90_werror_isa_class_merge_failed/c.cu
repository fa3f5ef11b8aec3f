__global__ void kc(int *p) { p[threadIdx.x] -= 2; }
