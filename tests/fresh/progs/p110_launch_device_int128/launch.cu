#include "wide.h"
#include <cstring>

extern "C" __device__ void* cudaGetParameterBuffer(size_t alignment, size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void* func, void* parameterBuffer, dim3 gridDimension,
                                                    dim3 blockDimension, unsigned int sharedMemSize,
                                                    cudaStream_t stream);

template <class T>
__device__ char* put(char* buf, size_t& off, const T& v) {
  off = (off + alignof(T) - 1) & ~(alignof(T) - 1);
  memcpy(buf + off, &v, sizeof(T));
  off += sizeof(T);
  return buf;
}

__device__ cudaError_t launch_dot(const long long* a, const long long* b, int n, i128* out, cudaStream_t s) {
  size_t off = 0;
  char* buf = (char*)cudaGetParameterBuffer(16, 64);
  if (!buf) return cudaErrorLaunchOutOfResources;
  put(buf, off, a);
  put(buf, off, b);
  put(buf, off, n);
  put(buf, off, out);
  return cudaLaunchDevice((void*)child_dot, buf, dim3(4), dim3(1), 0, s);
}
