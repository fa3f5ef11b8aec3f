// An undefined reference in a link with global and shared memory (nvlink's -v barrier count
// starts from the image's sections without data, as in a link that succeeds).
__device__ int nowhere(int);
__device__ int g1;
__device__ int g2[64];
__global__ void calls_missing(int* p) { p[0] = nowhere(p[1]) + g1 + g2[p[2]]; }
__global__ void plain(int* p) { __shared__ int s[32]; s[threadIdx.x] = p[0]; p[1] = s[p[2]]; g2[1]=3; }
