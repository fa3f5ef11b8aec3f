// Device-wide radix sort (pairs and keys, descending too) and a histogram.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_histogram.cuh>

cudaError_t sort_pairs(const unsigned* k, unsigned* ko, const float* v, float* vo, int n, void* tmp, size_t& bytes) {
  return cub::DeviceRadixSort::SortPairs(tmp, bytes, k, ko, v, vo, n);
}
cudaError_t sort_desc(const float* k, float* ko, int n, void* tmp, size_t& bytes) {
  return cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, k, ko, n);
}
cudaError_t histo(const float* s, int* h, int n, void* tmp, size_t& bytes) {
  return cub::DeviceHistogram::HistogramEven(tmp, bytes, s, h, 65, 0.0f, 1.0f, n);
}
