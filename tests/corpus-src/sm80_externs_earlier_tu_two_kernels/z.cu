__global__ void Z(int* o) { o[0] = 1; }
