__global__ void child(int *p);
__device__ void launch(int *p) { child<<<1, 32>>>(p); }
