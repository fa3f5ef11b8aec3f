#include <cstdlib>
__global__ void K(int* o) { int x=o[0]; x+=(int)(long)malloc(4); o[1]=x; }
