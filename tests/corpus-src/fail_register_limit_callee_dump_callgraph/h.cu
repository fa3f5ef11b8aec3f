__device__ float h(float x, int k) {
  float acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = x * (i + k);
  float s = 0; for (int i = 0; i < 16; ++i) s += acc[(i * k) & 15] * acc[i];
  return s;
}
