struct Pair { int a; long long b; };
extern __device__ int counter;
extern __device__ int answer;
extern __device__ long long big;
extern __device__ float table[8];
extern __device__ Pair pair;
extern __device__ int *ptr_to_answer;
extern __device__ char message[];
extern __device__ int read_local();

__device__ int local_to_use = 9;
__device__ unsigned char odd_sized[3] = {1, 2, 3};

__global__ void use_globals(long long *out)
{
    atomicAdd(&counter, 1);
    out[0] = answer + big + (long long)table[threadIdx.x & 7] + pair.b + *ptr_to_answer;
    out[1] = message[threadIdx.x & 7] + local_to_use + odd_sized[threadIdx.x % 3] + read_local();
}
