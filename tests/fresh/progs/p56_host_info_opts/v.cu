struct Base { __device__ virtual int f(int x) { return x; } };
struct Der : Base { __device__ int f(int x) override { return x * 2; } };
__global__ void k_virt(int *o) { Der d; Base *b = &d; o[0] = b->f(o[1]); }
void host_v(int *o) { k_virt<<<1, 1>>>(o); }
