template <typename T> __device__ __noinline__ T tsw(T k) { switch ((int)k) { case 0: return k + 1; case 1: return k * 3; case 2: return k - 7; case 3: return k * 9; case 4: return k * 2;
    case 5: return k + 21; case 6: return k * 5; default: return 0; } }
template <typename T> __device__ __noinline__ T tsw2(T k) { switch ((int)k) { case 0: return k + 11; case 1: return k * 13; case 2: return k - 17; case 3: return k * 19; case 4: return k * 12;
    case 5: return k + 121; case 6: return k * 15; case 7: return k ^ 3; case 8: return k | 9; default: return 0; } }
