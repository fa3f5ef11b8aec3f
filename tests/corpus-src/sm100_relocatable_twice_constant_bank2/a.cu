__device__ int ext_pick(int k, int v);
template <typename T> __device__ __noinline__ T tsw(T k) { switch ((int)k) { case 0: return k + 1; case 1: return k * 3; case 2: return k - 7; case 3: return k * 9; case 4: return k * 2;
    case 5: return k + 21; case 6: return k * 5; default: return 0; } }
__global__ void ka(int *o) { o[0] = ext_pick(o[1], 2) + tsw<int>(o[2]); }
__global__ void ka2(int *o) { o[0] = tsw<int>(o[1]); }
