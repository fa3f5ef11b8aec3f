__global__ void kfirst(int *p) { p[threadIdx.x] += 3; }
