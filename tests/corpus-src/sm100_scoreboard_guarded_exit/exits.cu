// Loads issued before an early `return` and consumed after it: the guarded EXIT ends the
// block, so nvlink's re-allocation gives the loads scoreboard 5 and separate read scoreboards.
__global__ void e_two(const float* in, float* out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  float w = i + 1 < n ? in[i + 1] : 0.f;
  if (i >= n) return;
  out[i] = v * s + w;
}
__global__ void e_three(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[i], y = b[i];
  if (x == 0) return;
  out[i] = x + y;
}
