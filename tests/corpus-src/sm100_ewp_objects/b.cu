__global__ void kb(int *o) { o[2] = o[3] * 2; }
