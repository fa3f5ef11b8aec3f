#include <cuda/atomic>
__managed__ int m_flag = 0;
__managed__ unsigned long long m_hist[32];
__managed__ float m_scale = 1.5f;
__device__ unsigned int g_ticket;
__device__ __noinline__ unsigned take_ticket() { return atomicInc(&g_ticket, 0xffffffffu); }
__global__ void reset() { m_flag = 0; for (int i = 0; i < 32; ++i) m_hist[i] = 0; }
