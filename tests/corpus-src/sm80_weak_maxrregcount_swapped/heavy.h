// Inline and template functions are emitted as weak definitions in every TU that uses them.
// They are register-hungry, so -maxrregcount changes each copy's register count and code.
__device__ __noinline__ inline float heavy_inline(const float *in, int n)
{
    float acc[24];
#pragma unroll
    for (int i = 0; i < 24; ++i) acc[i] = in[i * n];
    float s = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int i = 0; i < 24; ++i) s += acc[i] * acc[(i + j) % 24];
    return s;
}

template <typename T> __device__ __noinline__ T heavy_template(const T *in, int n)
{
    T a = in[0], b = in[n], c = in[2 * n], d = in[3 * n], e = in[4 * n], f = in[5 * n];
    return a * b + c * d + e * f + a * f + b * e + c * d * a;
}
