__device__ int only_vars[3] = {1, 2, 3};
__constant__ float only_consts[2] = {0.5f, 0.25f};
