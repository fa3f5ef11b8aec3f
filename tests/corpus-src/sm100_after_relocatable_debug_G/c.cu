__device__ int combine(int i);
__global__ void kc(int* o) { o[threadIdx.x] = combine(threadIdx.x) * 2; }
void run_c(int* o) { kc<<<1, 64>>>(o); }
