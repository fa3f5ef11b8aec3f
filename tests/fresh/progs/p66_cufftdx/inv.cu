#include <cufftdx.hpp>
using namespace cufftdx;
using FFT = decltype(Size<64>() + Precision<float>() + Type<fft_type::c2c>() + Direction<fft_direction::inverse>() + ElementsPerThread<8>() + FFTsPerBlock<1>() + SM<ARCH>() + Block());
__device__ void post(typename FFT::value_type *d, int n) { d[threadIdx.x % n].x *= 0.5f; }
__global__ void __launch_bounds__(FFT::max_threads_per_block) ifft64(typename FFT::value_type *data) {
  typename FFT::value_type thread_data[FFT::storage_size];
  const unsigned stride = size_of<FFT>::value / FFT::elements_per_thread;
  unsigned idx = threadIdx.x;
  for (unsigned i = 0; i < FFT::elements_per_thread; i++) { thread_data[i] = data[idx]; idx += stride; }
  extern __shared__ __align__(alignof(float4)) unsigned char smem[];
  FFT().execute(thread_data, reinterpret_cast<typename FFT::value_type*>(smem));
  idx = threadIdx.x;
  for (unsigned i = 0; i < FFT::elements_per_thread; i++) { data[idx] = thread_data[i]; idx += stride; }
}
