// A generated kernel (notes m1/m4 r5_2). nvlink, re-allocating its scoreboards in the final
// link, does not put a read scoreboard on scoreboard 5 next to an escaping load first needed at
// the same instruction while another scoreboard is free (a tie with a scoreboard-5 producer
// comes after the free scoreboards), and compares first needs as seen from the instruction
// being allocated.
#include <cuda_runtime.h>
extern "C" __global__ void r5_2(const int* __restrict__ a, const int* b, int* o, int n){ __shared__ int sh[256]; int x=a[threadIdx.x], y=b[blockIdx.x], z=(int)n; for(int i0=0;i0<n;i0++){ if(((int)y)&1){ z+=atomicAdd((int*)&o[((int)((x>>1)+x))&255],1); atomicAdd(&o[((int)((x>>1)+x))&63],y); } else { y+=__shfl_xor_sync(0xffffffff,y,16); } z+=a[(i0+(int)(x-y))&1023]; while(x<116){ z+=atomicAdd((int*)&o[((int)(y*x))&255],1); x+=7; } } x=(x-y); o[threadIdx.x]=x+y+z; }
