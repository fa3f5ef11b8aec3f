__device__ int gv_used_by_ka;
__device__ int gv_host_only;
__device__ int gv_nobody;
__constant__ int cv_host;
__constant__ int cv_nobody;
__global__ void ka(int* o) { o[0] = 1 + gv_used_by_ka; }
__global__ void kb(int* o) { o[1] = 2; }
__global__ void kc(float* o) { o[1] = 3; }
__global__ void kc(int* o) { o[1] = 4; }
static __global__ void ks(int* o) { o[2] = 5; }
void launch_s(int* o) { ks<<<1,1>>>(o); }
