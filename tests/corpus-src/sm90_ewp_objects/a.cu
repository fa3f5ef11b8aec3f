__device__ int ewp_a(int x) { return x + 2; }
__global__ void ka(int *o) { o[0] = ewp_a(o[1]); }
