// Device-wide reductions through cub: DeviceReduce and DeviceSegmentedReduce (host launches the
// templated kernels; the same instantiations also appear in scan.cu).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

cudaError_t sum_ints(const int* in, int* out, int n, void* tmp, size_t& bytes, cudaStream_t s) {
  return cub::DeviceReduce::Sum(tmp, bytes, in, out, n, s);
}
cudaError_t max_floats(const float* in, float* out, int n, void* tmp, size_t& bytes) {
  return cub::DeviceReduce::Max(tmp, bytes, in, out, n);
}
cudaError_t argmin_floats(const float* in, cub::KeyValuePair<int, float>* out, int n, void* tmp, size_t& bytes) {
  return cub::DeviceReduce::ArgMin(tmp, bytes, in, out, n);
}
cudaError_t segmented_max(const float* in, float* out, int segs, const int* offs, void* tmp, size_t& bytes) {
  return cub::DeviceSegmentedReduce::Max(tmp, bytes, in, out, segs, offs, offs + 1);
}
struct AbsMax {
  __device__ __host__ float operator()(float a, float b) const { return fabsf(a) > fabsf(b) ? a : b; }
};
cudaError_t segmented_absmax(const float* in, float* out, int segs, const int* offs, void* tmp, size_t& bytes) {
  return cub::DeviceSegmentedReduce::Reduce(tmp, bytes, in, out, segs, offs, offs + 1, AbsMax{}, 0.0f);
}
