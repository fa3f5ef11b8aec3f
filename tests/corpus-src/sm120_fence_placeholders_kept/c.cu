// Fences whose relocatable-compile placeholders nvlink keeps: in device functions, and in kernels
// that make calls (before or after the fence).
__device__ __noinline__ void fence_in_callee(int *o){ o[threadIdx.x]=3; __threadfence(); o[threadIdx.x+1]=1; }
__global__ void calls_fencing_callee(int *o){ fence_in_callee(o); }
__device__ __noinline__ int plain_callee(int *o){ return o[threadIdx.x*3]+1; }
__global__ void call_then_fence(int *o){ int v=plain_callee(o); __threadfence(); o[threadIdx.x]=v; }
__global__ void fence_then_call(int *o){ o[threadIdx.x]=2; __threadfence_block(); o[1]=plain_callee(o); }
