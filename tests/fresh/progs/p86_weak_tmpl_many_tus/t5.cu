#include "tmpl.h"
__device__ float tu5(float x) { Ring<float, 4> r{}; r.push(x); r.push(x * 2); return r.sum() + apply_all(x) + weights<float>[3]; }
void launch5(double *o, int n) { fill_kernel<double><<<n / 128, 128>>>(o, n); }
