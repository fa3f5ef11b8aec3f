#include <cub/cub.cuh>
struct Big { __device__ bool operator()(const int &x) const { return x > 3; } };
void run(int *d_in, int *d_out, int n, cudaStream_t s) {
  void *tmp = nullptr; size_t bytes = 0;
  cub::DeviceSelect::If(tmp, bytes, d_in, d_out, d_out + 1, n, Big(), s);
}
