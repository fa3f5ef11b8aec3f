__device__ unsigned lop3_mix(unsigned a, unsigned b, unsigned c);
__device__ float warp_sum(float v) {
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__global__ void warp_ops(const int* in, int* out) {
  int v = in[threadIdx.x + blockIdx.x * blockDim.x];
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
  unsigned match = __match_any_sync(0xffffffffu, v);
  int any = __any_sync(0xffffffffu, v == 7), all = __all_sync(0xffffffffu, v != 0);
  int up = __shfl_up_sync(0xffffffffu, v, 1), down = __shfl_down_sync(0xffffffffu, v, 2, 16);
  float s = warp_sum((float)v);
  __syncwarp();
  out[threadIdx.x] = __popc(ballot) + __ffs(match) + any + all + up + down + (int)s + __clz(v) + __brev(v) + lop3_mix(v, up, down);
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] += __reduce_add_sync(0xffffffffu, (unsigned)v) + __reduce_max_sync(0xffffffffu, v);
#endif
}
