__device__ int fc(int);

__global__ void kA(int *o) { o[threadIdx.x] = fc(1); }
__global__ void kB(int *o) { o[threadIdx.x] = fc(2); }
__global__ void kC(int *o) { o[threadIdx.x] = threadIdx.x; }

__global__ void kD(int *o)
{
    __shared__ int b[5];
    b[threadIdx.x % 5] = 1;
    __syncthreads();
    o[threadIdx.x] = b[(threadIdx.x + 1) % 5];
}
