__global__ void k_small(int* o) { o[0] = o[1] + 2; }
