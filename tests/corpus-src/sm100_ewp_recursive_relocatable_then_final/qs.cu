__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void kf(int *o, int n) { o[threadIdx.x] = fib(n + threadIdx.x); }
__global__ void kp(int *o) { o[threadIdx.x] += 1; }
