__device__ int from_cubin(int);
__device__ int from_fatbin(int);
extern "C" __device__ int from_ptx(int);
__device__ int from_lib(int);
__global__ void all_kinds(int *o) { o[0] = from_cubin(o[1]) + from_fatbin(o[2]) + from_ptx(o[3]) + from_lib(o[4]); }
