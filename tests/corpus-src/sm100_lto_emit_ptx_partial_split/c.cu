__global__ void kplain(int *p) { p[threadIdx.x] += 3; }
