#include "h.h"
__global__ void __launch_bounds__(512, 1) ka(int* q, int n) { q[0] = heavy(q, n); }
