// Every kind of fence in kernels that call nothing: nvlink drops the relocatable compile's
// placeholders (@!PT LDS RZ,[RZ] and the extra MEMBAR.ALL.CTA) before each.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2,1,1) k_csync_nosmem(int *o){ cg::this_cluster().sync(); o[threadIdx.x]=1; }
__global__ void __cluster_dims__(2,1,1) k_csync_sts(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; cg::this_cluster().sync(); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void __cluster_dims__(2,1,1) k_csync_stg(int *o){ o[threadIdx.x]=5; cg::this_cluster().sync(); o[threadIdx.x+1]=1; }
__global__ void k_sync_sts(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; __syncthreads(); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_tf_block(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; __threadfence_block(); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_tf(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; __threadfence(); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_tf_sys(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; __threadfence_system(); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_tf_nosmem(int *o){ o[threadIdx.x]=3; __threadfence(); o[threadIdx.x+1]=1; }
__global__ void k_fence_cluster(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("fence.acq_rel.cluster;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_fence_gpu(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("fence.acq_rel.gpu;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_fence_sc_gpu(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("fence.sc.gpu;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_fence_sc_cta(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("fence.sc.cta;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_fence_sc_cluster(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("fence.sc.cluster;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_fence_sys(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("fence.acq_rel.sys;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_membar_gl(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("membar.gl;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_membar_cta(int *o){ __shared__ int s[64]; s[threadIdx.x&63]=o[0]; asm volatile("membar.cta;":::"memory"); o[threadIdx.x]=s[(threadIdx.x+1)&63]; }
__global__ void k_two_fences(int *o){ o[threadIdx.x]=2; __threadfence(); o[1]=3; __threadfence_block(); o[2]=4; }
__global__ void k_shfl_fence(int *o){ int v=__shfl_xor_sync(~0u,o[threadIdx.x],1); __threadfence(); o[threadIdx.x]=v; }
__global__ void k_atoms_fence(int *o){ __shared__ int s[64]; int v=atomicAdd(&s[threadIdx.x&63],1); __threadfence(); o[threadIdx.x]=v; }
__global__ void k_atomg_fence(int *o){ int v=atomicAdd(&o[threadIdx.x&63],1); __threadfence(); o[threadIdx.x]=v; }
__global__ void k_ldg_fence(int *o){ int v=o[threadIdx.x+5]; __threadfence(); o[threadIdx.x]=v; }
