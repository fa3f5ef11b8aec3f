#include "tmpl.h"
__device__ float tu2(float x) { Ring<float, 4> r{}; r.push(x); return r.sum() + poly(x, 2) + (float)poly(2.0, 3); }
