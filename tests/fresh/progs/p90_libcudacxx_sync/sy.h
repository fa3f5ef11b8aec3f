#pragma once
#include <cuda/std/atomic>
#include <cuda/atomic>
#include <cuda/latch>
#include <cuda/semaphore>
__device__ float pipelined_sum(const float *g, int chunks, int chunk);
__device__ float roles_sum(const float *g, int chunks);
extern __device__ cuda::counting_semaphore<cuda::thread_scope_device, 8> g_slots;
extern __device__ cuda::atomic<int, cuda::thread_scope_device> g_epoch;
extern __device__ cuda::std::atomic<float> g_fsum;
__device__ void throttled(float v);
__device__ int wait_epoch(int seen);
__device__ float hinted_read(float *g, int i, int n);
__device__ int block_latch_count();
