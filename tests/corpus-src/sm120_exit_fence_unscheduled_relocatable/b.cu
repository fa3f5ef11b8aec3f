__device__ float plain_fn(float x);
__device__ void dev_exit(int x);
__global__ void k_calls_plain(float *o) { o[threadIdx.x] = plain_fn(o[threadIdx.x]); }
__global__ void k_dev_exit(int *o) { dev_exit(o[threadIdx.x]); o[threadIdx.x] = 1; }
__global__ void k_loop(float *o, int n) { float s = 0; for (int i = threadIdx.x; i < n; i += 32) s += o[i]; o[threadIdx.x] = s; }
