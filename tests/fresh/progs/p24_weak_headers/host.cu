__global__ void kx(int*, const float*); __global__ void ky(int*, const float*); __global__ void kz(int*);
void launch_all(int* o, float* f) { kx<<<1, 1>>>(o, f); ky<<<1, 1>>>(o, f); kz<<<1, 1>>>(o); }
