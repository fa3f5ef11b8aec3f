__constant__ int ctab[16] = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16};
__device__ __noinline__ int pick(int k, int v) {
  switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2;
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
}
__global__ void k1(int *o) { o[0] = pick(o[1], ctab[o[2] & 15]); }
__global__ void k2(int *o) { o[0] = ctab[o[1] & 15]; }
