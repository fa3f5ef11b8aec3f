// 128-bit products and a 128-bit compare-and-swap accumulation (fresh p110's child_mul).
__device__ unsigned __int128 g_acc128;

__global__ void child_mul(unsigned long long a, unsigned long long b) {
  unsigned __int128 r = (unsigned __int128)(a + threadIdx.x) * b;
  unsigned __int128 v = r >> 64, old = g_acc128, seen;
  while ((seen = atomicCAS(&g_acc128, old, old + v)) != old) old = seen;
}
