// Kernel TU (host object) calling into a cubin, a fatbin, a PTX file and an archive member,
// and launching a child kernel (libcudadevrt).
extern __device__ int from_cubin(int);
extern __device__ int from_fatbin(int);
extern __device__ int from_ptx(int);
extern __device__ int from_archive(int);
__global__ void child(int *p) { p[1] = 1; }
__global__ void mixed(int *p)
{
    p[0] = from_cubin(p[0]) + from_fatbin(p[1]) + from_ptx(p[2]) + from_archive(p[3]);
    if (threadIdx.x == 0) child<<<1, 1>>>(p);
}
