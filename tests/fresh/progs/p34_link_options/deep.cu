// Recursion makes the stack size unknown (nvlink warns); a kernel with a big local array.
__device__ int walk(int *a, int n) { return n <= 0 ? a[0] : a[n] + walk(a, n - 1); }
__global__ void recur(int *a, int n) { a[0] = walk(a, n); }
__global__ void local_big(int *o) { int buf[512]; for (int i = 0; i < 512; ++i) buf[i] = o[i] * i; o[threadIdx.x] = buf[(threadIdx.x * 7) & 511]; }
__device__ int used_var = 4;
__device__ int unused_var = 5;
__global__ void reads(int *o) { o[2] = used_var; }
