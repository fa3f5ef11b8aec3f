#include "heavy.h"
__global__ void kernel_high(const float *in, float *out)
{
    out[threadIdx.x] = heavy_inline(in + 1, blockDim.x) * heavy_template(in, 5);
}
