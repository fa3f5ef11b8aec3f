__global__ void child(int *p);
__device__ __noinline__ void* getk() { return (void*)child; }
