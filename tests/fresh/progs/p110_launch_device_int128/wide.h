#pragma once
#include <cuda_runtime.h>

using u128 = unsigned __int128;
using i128 = __int128;

struct alignas(16) Pair { unsigned long long lo, hi; };

extern __device__ u128 g_acc128;
extern __device__ Pair g_pair;
__device__ u128 mul_wide(unsigned long long a, unsigned long long b);
__device__ i128 dot128(const long long* a, const long long* b, int n);
__device__ void add128(u128* p, u128 v);
__device__ bool try_swap_pair(Pair* p, Pair expect, Pair want);

// child kernels launched from the device by hand (parameter buffer + cudaLaunchDevice)
__global__ void child_dot(const long long* a, const long long* b, int n, i128* out);
__global__ void child_mul(unsigned long long a, unsigned long long b);
__device__ cudaError_t launch_dot(const long long* a, const long long* b, int n, i128* out, cudaStream_t s);
