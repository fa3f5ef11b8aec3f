__global__ void child(int *p) { p[threadIdx.x] += 1; }
__device__ void launch(int *p);
__global__ void parent(int *p) { if (threadIdx.x == 0) launch(p); }
int main() { parent<<<1, 1>>>(nullptr); return 0; }
