// -G keeps CUDA's atomic wrappers out of line: each TU gets its own local __iAtomicAdd.
__global__ void k_a(int *p) { atomicAdd(p, threadIdx.x); }
