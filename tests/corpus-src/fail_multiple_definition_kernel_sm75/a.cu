__global__ void same_kernel(int *p) { p[0] = 1; }
