extern __device__ int dsum(int *p);
__global__ void k2(int *p) { extern __shared__ float4 dynk[]; dynk[threadIdx.x].x = p[1]; __syncthreads(); p[threadIdx.x] = dynk[0].x + dsum(p); }
__global__ void kn(float *o) { o[threadIdx.x] *= 2.f; }
__global__ void k3(double *p) { extern __shared__ double dd[]; dd[threadIdx.x] = p[0]; __syncthreads(); p[threadIdx.x] = dd[1]; }
