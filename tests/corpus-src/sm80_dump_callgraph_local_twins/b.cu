__global__ void kb(float* p) { p[0] = p[1] / p[2]; }
