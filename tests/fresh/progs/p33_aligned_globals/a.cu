struct alignas(64) Line { float v[3]; };
__device__ alignas(256) float big_aligned[100];
__device__ char odd1[3];
__device__ Line lines[5];
__device__ char odd2[5] = {1, 2, 3, 4, 5};
__constant__ alignas(128) double ctab[3] = {1.0, 2.0, 3.0};
__constant__ char cchar[7] = "abcdef";
__global__ void ka(float *o) {
  __shared__ alignas(128) float s1[33];
  __shared__ char s2[5];
  s1[threadIdx.x & 31] = big_aligned[threadIdx.x] + lines[1].v[0];
  s2[threadIdx.x & 3] = odd1[threadIdx.x & 1] + odd2[2] + cchar[3];
  __syncthreads();
  o[threadIdx.x] = s1[(threadIdx.x + 1) & 31] + s2[0] + ctab[threadIdx.x % 3];
}
