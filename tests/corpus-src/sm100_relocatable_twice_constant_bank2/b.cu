template <typename T> __device__ __noinline__ T tsw(T k) { switch ((int)k) { case 0: return k + 1; case 1: return k * 3; case 2: return k - 7; case 3: return k * 9; case 4: return k * 2;
    case 5: return k + 21; case 6: return k * 5; default: return 0; } }
__device__ __noinline__ int ext_pick(int k, int v) {
  switch (k) { case 0: return v + 1; case 1: return v * 3; case 2: return v - 7; case 3: return v ^ 9; case 4: return v << 2;
    case 5: return v >> 1; case 6: return v | 5; case 7: return v & 6; case 8: return -v; case 9: return v % 5; default: return 0; }
}
__global__ void kb(int *o) { o[0] = tsw<int>(o[1]) * 7; o[2] = ext_pick(o[1], 4); int k=o[3], v=o[4]; switch (k) { case 0: o[5]=v+1; break; case 1: o[5]=v*3; break; case 2: o[5]=v-7; break; case 3: o[5]=v^9; break; case 4: o[5]=v<<2; break; case 5: o[5]= v>>1; break; case 6: o[5]=v|5; break;} }
