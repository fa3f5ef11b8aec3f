#include "heavy.h"
__global__ void kernel_low(const float *in, float *out)
{
    out[threadIdx.x] = heavy_inline(in, threadIdx.x) + heavy_template(in, 3);
}
