#include "tmpl.h"
__device__ float tu6(float x) { Ring<int, 16> r{}; r.push((int)x); return (float)r.sum() + counted(x) + (float)weights<double>[2]; }
void launch6(int *o, int n) { fill_kernel<int><<<n / 128, 128>>>(o, n); }
