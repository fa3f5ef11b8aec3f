// A kernel with a __grid_constant__ parameter struct and a cluster barrier through cuda::ptx,
// which uses only the elect helper of dsmem.cu.
#include <cuda/ptx>
__device__ bool leader();
struct Params { int n; float a; const float *x; float *y; int pad[12]; };

__global__ void __cluster_dims__(4, 1, 1) axpy(const __grid_constant__ Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.y[i] += p.a * p.x[i] + p.pad[i & 7];
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_wait();
  if (leader() && i == 0) p.y[0] = p.a;
}
