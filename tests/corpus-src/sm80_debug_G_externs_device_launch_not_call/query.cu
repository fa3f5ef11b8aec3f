__device__ int q() { int d = -1; cudaGetDevice(&d); return d; }
__global__ void r(int* out) {
  out[0] = q();
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, (const void*)r);
  out[1] = fa.numRegs;
}
