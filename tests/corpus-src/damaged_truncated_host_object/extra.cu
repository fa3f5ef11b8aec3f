__global__ void extra_kernel(int *p) { p[0] = 9; }
