#include "common.cuh"
__global__ void kz(int* o) { o[4] = unroll_sum<8>(o) + bump() + file_local(o[5]); }
void launch_all(int* o, float* f);
