__device__ int tab(int x, int y) {
  switch (x) {
    case 0: return y + 3;
    case 1: return y * 7;
    case 2: return y - 11;
    case 3: return y ^ 0x55;
    case 4: return y << 2;
    case 5: return y >> 1;
    case 6: return y | 9;
    case 7: return y & 0xf0;
    case 8: return y * y;
    case 9: return y + 100;
    default: return 0;
  }
}
__global__ void ksw(int *out, const int *in) {
  int i = threadIdx.x;
  int v = in[i];
  switch (v & 15) {
    case 0: out[i] = v + 1; break;
    case 1: out[i] = v * 3; return;
    case 2: out[i] = v - 5; break;
    case 3: out[i] = v ^ 7; return;
    case 4: out[i] = tab(v, i); break;
    case 5: out[i] = v >> 2; break;
    case 6: out[i] = v << 4; return;
    case 7: out[i] = v & 0x3f; break;
    case 8: out[i] = v | 0x100; break;
    case 9: out[i] = v * v; return;
    case 10: out[i] = 42; break;
    default: return;
  }
  out[i+1] = 1;
}
