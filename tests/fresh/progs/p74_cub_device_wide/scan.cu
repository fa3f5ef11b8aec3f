// Device-wide scans, plus a second instantiation of DeviceReduce::Sum<int*> (weak in both TUs).
#include <cub/device/device_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

cudaError_t prefix_sum(const int* in, int* out, int n, void* tmp, size_t& bytes) {
  return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
}
cudaError_t running_max(const float* in, float* out, int n, void* tmp, size_t& bytes) {
  return cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, cuda::maximum<float>{}, n);
}
cudaError_t total(const int* in, int* out, int n, void* tmp, size_t& bytes, cudaStream_t s) {
  return cub::DeviceReduce::Sum(tmp, bytes, in, out, n, s);
}
struct Positive { __device__ bool operator()(int x) const { return x > 0; } };
cudaError_t keep_positive(const int* in, int* out, int* nsel, int n, void* tmp, size_t& bytes) {
  return cub::DeviceSelect::If(tmp, bytes, in, out, nsel, n, Positive{});
}
