// __constant__ data: 32- and 64-bit scalars, arrays, initialized and not, extern across TUs.
__constant__ int c_int = 0x12345678;
__constant__ long long c_i64 = 0x0102030405060708LL;
__constant__ double c_double = 2.5;
__constant__ float c_coeffs[16] = {0.5f, 1.5f, 2.5f, 3.5f};
__constant__ unsigned char c_bytes[5] = {1, 2, 3, 4, 5};
__constant__ int c_uninit[64];
__constant__ const int *c_ptr = 0;
