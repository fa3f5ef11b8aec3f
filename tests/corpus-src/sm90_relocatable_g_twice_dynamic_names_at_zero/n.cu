__global__ void kn(float *o) { o[threadIdx.x] *= 2.f; }
