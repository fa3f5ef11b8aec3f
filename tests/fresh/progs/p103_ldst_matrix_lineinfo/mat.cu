// ldmatrix / stmatrix (inline PTX) helpers on shared memory tiles; built with -lineinfo.
#include <cstdint>
__device__ void load_x4(const void *smem, uint32_t r[4]) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
__device__ void load_x2_trans(const void *smem, uint32_t r[2]) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
               : "=r"(r[0]), "=r"(r[1]) : "r"(a));
}
__device__ void store_x4(void *smem, const uint32_t r[4]) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(a), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
}
__device__ void store_x1_trans(void *smem, uint32_t r) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
               :: "r"(a), "r"(r) : "memory");
}
