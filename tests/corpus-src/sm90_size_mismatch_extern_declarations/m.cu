extern __constant__ int ctab[4096];
__global__ void km(int *o) { o[0] = ctab[0]; o[1] = ctab[1]; o[2] = ctab[5]; o[3] = ctab[100]; o[4] = ctab[4000]; o[5] = ctab[threadIdx.x]; }
