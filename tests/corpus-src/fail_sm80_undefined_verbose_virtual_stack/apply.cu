typedef float (*unary_fn)(float);
__device__ __noinline__ float apply_external(unary_fn f, float v) { return f(v); }
