#include <curand_kernel.h>
#include <cuda/std/complex>
__global__ void k_rand(float *o, unsigned long long seed) {
  curandStatePhilox4_32_10_t st; curand_init(seed, threadIdx.x, 0, &st);
  o[threadIdx.x] = curand_uniform(&st) + curand_normal(&st);
}
__device__ __noinline__ cuda::std::complex<double> rot(cuda::std::complex<double> z) { return z * cuda::std::polar(1.0, 0.7853981633974483); }
__global__ void k_cplx(double *o) { auto z = rot({o[0], o[1]}); o[2] = z.real(); o[3] = cuda::std::abs(z); }
