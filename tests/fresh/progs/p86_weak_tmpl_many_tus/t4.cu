#include "tmpl.h"
__device__ float tu4(float x) { return (float)counted((int)x) + poly((float)x, 7) + (float)poly(3, 4); }
void launch4(float *o, int n) { fill_kernel<float><<<n / 128, 128>>>(o, n); }
