#include <cub/device/device_histogram.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/complex>
struct IsPos { __device__ bool operator()(float x) const { return x > 0; } };
void run_hist(const float* d, int* h, int n, void* tmp, size_t bytes) {
  cub::DeviceHistogram::HistogramEven(tmp, bytes, d, h, 65, 0.f, 64.f, n);
  cub::DeviceSelect::If(tmp, bytes, d, (float*)tmp, h, n, IsPos());
}
__global__ void cplx(cuda::std::complex<float>* z, int n) { int i = threadIdx.x; if (i < n) z[i] = z[i] * z[i] + cuda::std::complex<float>(1, 2); }
