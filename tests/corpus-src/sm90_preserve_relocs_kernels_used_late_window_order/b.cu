#include "common.cuh"
__global__ void kd(float *o) { o[9] = block_sum<float, 64, 4>((float)o[0]); }
__global__ void ke(float *o) { o[9] = block_sum<int, 32, 4>((int)o[0]); }
__global__ void kf(float *o) { o[9] = 0; }
