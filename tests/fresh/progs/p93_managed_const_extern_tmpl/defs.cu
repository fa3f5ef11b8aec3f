#include "tm.h"
__managed__ Cell cells[64];
__managed__ unsigned long long ticks[4] = {1, 2, 3, 4};
__constant__ float coef[256];
__constant__ int2 ranges[16] = {{0, 4}, {4, 9}, {9, 16}};
