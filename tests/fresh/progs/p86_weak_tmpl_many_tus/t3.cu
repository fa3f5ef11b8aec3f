#include "tmpl.h"
__device__ float tu3(float x) { Ring<double, 8> r{}; r.push(x); return (float)r.sum() + counted(x) + apply_all(x); }
void launch3(int *o, int n) { fill_kernel<int><<<n / 128, 128>>>(o, n); }
