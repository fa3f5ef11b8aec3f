#include "vars.h"
__managed__ int m_count;
__managed__ float m_hist[64];
__device__ int *d_ring;
__device__ void record(int bin) {
  atomicAdd(&m_count, 1);
  atomicAdd(&m_hist[bin & 63], apply((float)bin));
  if (d_ring) d_ring[k_perm[bin & 31]] = bin;
}
