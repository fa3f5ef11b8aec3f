// A branchy kernel (generated, notes m1/m4 r6_11): stores on one side of a branch, a load and an
// atomic on the other. At the merge, a store's read scoreboard is still pending from one path;
// nvlink, re-allocating the scoreboards in the final link, compares the first needs of pending
// producers as seen from the instruction being allocated (not from each producer's own place).
#include <cuda_runtime.h>
extern "C" __global__ void r6_11(const int* __restrict__ a, const int* b, int* o, int n){ __shared__ int sh[256]; int x=a[threadIdx.x], y=b[blockIdx.x], z=(int)n; if(((int)y)&1){ o[((int)(z*z))&1023]=y; } else { o[((int)(y*y))&1023]=x; if(((int)x)&2){ z+=a[((int)(z-y))&1023]; z=(z-y); o[((int)(x+x))&1023]=y; } else { z+=atomicAdd((int*)&o[((int)(z+x))&255],1); o[((int)(x-x))&1023]=z; } } if(((int)x)&4){ x+=atomicAdd((int*)&o[((int)(z^x))&255],1); } else { z+=b[((int)((x>>1)+z))&511]*x; x+=b[((int)(z*y))&511]*y; } o[threadIdx.x]=x+y+z; }
