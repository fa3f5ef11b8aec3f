#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
struct IsPos { __device__ bool operator()(float x) const { return x > 0; } };
void run_seg(float* k, float* o, int n, int* offs, int segs, void* tmp, size_t bytes) {
  cub::DeviceSegmentedSort::SortKeys(tmp, bytes, k, o, n, segs, offs, offs + 1);
  cub::DeviceSelect::If(tmp, bytes, k, o, offs, n, IsPos());
}
