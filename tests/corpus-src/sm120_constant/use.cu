extern __constant__ int c_int;
extern __constant__ long long c_i64;
extern __constant__ double c_double;
extern __constant__ float c_coeffs[16];
extern __constant__ unsigned char c_bytes[5];
extern __constant__ int c_uninit[64];

__constant__ short c_local_short = 3;
__constant__ long long c_local_pair[2] = {-1, 1};

__global__ void use_constants(double *out)
{
    int i = threadIdx.x;
    out[i] = c_int + c_i64 + c_double + c_coeffs[i & 15] + c_bytes[i % 5] + c_uninit[i & 63]
             + c_local_short + c_local_pair[i & 1];
}
