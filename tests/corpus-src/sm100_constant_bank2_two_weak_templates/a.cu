#include "h.h"
__global__ void ka(int *o) { o[0] = tsw<int>(o[2]) + tsw2<int>(o[3]); }
