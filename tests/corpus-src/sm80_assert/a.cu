#include <cassert>
// assert() calls __assertfail with the message, file and function strings.
__device__ __noinline__ void check_positive(int v) { assert(v > 0); }
__global__ void assert_kernel(const int *in)
{
    check_positive(in[threadIdx.x]);
    assert(in[0] != 42 && "the answer is not allowed");
}
