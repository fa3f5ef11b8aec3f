__device__ __noinline__ int helper(int *p, int v) { return p[v] * 3 + v; }
__global__ void k_plain(int *o) { o[threadIdx.x] = helper(o, threadIdx.x); }
__global__ void k_trigger(int *o) {
  o[threadIdx.x] += 1;
  asm volatile("griddepcontrol.launch_dependents;");
  o[threadIdx.x + 32] = helper(o, 2);
}
__global__ void k_wait(int *o) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  o[threadIdx.x] = 5;
}
