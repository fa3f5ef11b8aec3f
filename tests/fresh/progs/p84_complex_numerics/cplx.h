#pragma once
#include <cuda/std/complex>
#include <cuda/std/array>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using cf = cuda::std::complex<float>;
using cd = cuda::std::complex<double>;
extern __constant__ cuda::std::array<cf, 64> c_twiddle;
extern __device__ cd g_accum;
__device__ cf cmul_exp(cf a, cf b);
__device__ cd cpoly(cd z, int deg);
__device__ cuda::std::complex<__half> hmul(cuda::std::complex<__half> a, cuda::std::complex<__half> b);
__device__ cuda::std::complex<__nv_bfloat16> bmul(cuda::std::complex<__nv_bfloat16> a, cuda::std::complex<__nv_bfloat16> b);
__device__ float numeric_mix(float x, double y);
__device__ void radix4(cf *data, int stride);
