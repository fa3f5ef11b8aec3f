// Dynamic parallelism: a kernel launching a child kernel; needs libcudadevrt at link time.
__global__ void child(int *data, int depth) { data[threadIdx.x] += depth; }

__global__ void parent(int *data, int depth)
{
    if (threadIdx.x == 0) {
        child<<<1, 32>>>(data, depth);
        child<<<2, 64, 0, cudaStreamFireAndForget>>>(data, depth + 1);
    }
}

__global__ void tail_launcher(int *data)
{
    if (threadIdx.x == 0)
        child<<<1, 1, 0, cudaStreamTailLaunch>>>(data, 99);
}
