// __managed__ variables, initialized and not, one used from a second TU.
__managed__ int m_counter;
__managed__ float m_values[32] = {1.0f, 2.0f};
__managed__ long long m_wide = 77;
__global__ void bump(int n) { atomicAdd(&m_counter, n); m_values[threadIdx.x & 31] += m_wide; }
