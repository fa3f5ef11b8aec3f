extern __shared__ float x4f[];
extern __shared__ double2 x4d[];
extern __shared__ char x4c[];
extern __shared__ __align__(64) int x4a[];
__global__ void k4a(float* o) { x4f[threadIdx.x] = 1; __syncthreads(); o[0] = x4f[threadIdx.x^1]; }
__global__ void k4b(double* o) { x4d[threadIdx.x].x = 1; __syncthreads(); o[0] = x4d[threadIdx.x^1].y; }
__global__ void k4c(char* o) { x4c[threadIdx.x] = 1; __syncthreads(); o[0] = x4c[threadIdx.x^1]; }
__global__ void k4d(int* o) { x4a[threadIdx.x] = 1; __syncthreads(); o[0] = x4a[threadIdx.x^1]; }
__global__ void k4e(int* o) { o[0] = 1; }
