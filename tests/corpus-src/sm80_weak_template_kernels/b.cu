#include "tk.cuh"
void fb(int* p) { tk<<<1, 32>>>(p, 2); }
__global__ void kb(int* p) { p[0] = 2; }
