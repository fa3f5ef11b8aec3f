#include "h.h"
__global__ void kb(int *o) { o[0] = tsw2<int>(o[1]) * 7 + tsw<int>(o[4]); }
