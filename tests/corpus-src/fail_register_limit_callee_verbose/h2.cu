__device__ float h(float x, int k);
__device__ float g(float x, int k) {
  float acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = x * (i + k);
  float s = 0; for (int i = 0; i < 16; ++i) s += acc[(i * k) & 15] * acc[i];
  return s + h(x, k+1);
}
__device__ float mid(float x, int k) { return g(x, k) + 1; }
