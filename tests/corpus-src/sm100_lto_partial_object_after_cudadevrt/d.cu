__global__ void kafter(int *p) { p[1] = 9; }
