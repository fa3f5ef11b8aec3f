__global__ void launched(int *o) { o[0] = 1; }
__global__ void never_launched(int *o) { o[1] = 2; }
__device__ int helper_dev(int x) { return x + 3; }
__global__ void also_launched(int *o) { o[2] = helper_dev(o[3]); }
void host_side(int *o) { launched<<<1, 1>>>(o); also_launched<<<1, 1>>>(o); }
