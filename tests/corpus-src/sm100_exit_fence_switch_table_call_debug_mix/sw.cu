__device__ __noinline__ int pick(int x, int y) { return x * y + 3; }
__global__ void kboth(int *out, const int *in) {
  int i = threadIdx.x;
  int v = in[i];
  switch (v & 15) {
    case 0: out[i] = v + 1; break;
    case 1: out[i] = pick(v, 3); return;
    case 2: out[i] = v - 5; break;
    case 3: out[i] = v ^ 7; return;
    case 4: out[i] = pick(i, v); break;
    case 5: out[i] = v >> 2; break;
    case 6: out[i] = v << 4; return;
    case 7: out[i] = v & 0x3f; break;
    case 8: out[i] = v | 0x100; break;
    case 9: out[i] = v * v; return;
    case 10: out[i] = 42; break;
    case 11: return;
    default: out[i] = pick(v, v); return;
  }
  out[i+1] = 1;
}
