// Large kernel parameter lists: a 4000-byte struct, many scalars, and an 8 KiB struct
// (sm_70+ allows up to 32764 bytes of parameters).
struct Block4k { int v[1000]; };
struct Block8k { double v[1024]; };

__global__ void big_struct(Block4k b, int *out) { out[threadIdx.x] = b.v[threadIdx.x % 1000]; }
__global__ void many_scalars(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7,
                             long long b0, long long b1, long long b2, long long b3,
                             float c0, float c1, float c2, float c3, double d0, double d1,
                             char e0, short e1, char e2, double *out)
{
    out[0] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + b0 + b1 + b2 + b3 + c0 + c1 + c2 + c3 + d0
             + d1 + e0 + e1 + e2;
}
__global__ void huge_struct(Block8k b, double *out) { out[threadIdx.x] = b.v[threadIdx.x & 1023]; }
