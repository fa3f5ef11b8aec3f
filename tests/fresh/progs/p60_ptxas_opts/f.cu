__device__ __noinline__ int fill_local(int seed, int n) {
  int buf[64];
  for (int i = 0; i < 64; i++) buf[i] = seed * i ^ (i << 3);
  int s = 0;
  for (int i = 0; i < n; i++) s += buf[(i * 7 + seed) & 63];
  return s;
}
__device__ __noinline__ int walk(int d, int acc) { return d <= 0 ? acc : walk(d - 1, acc * 3 + fill_local(d, d & 15)); }
__device__ float smooth(float x, float y) { return __expf(x) * sinf(y) / (1.f + x * x) + sqrtf(fabsf(y)); }
typedef int (*op_t)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ op_t g_ops[2] = {op_add, op_mul};
__device__ __noinline__ int apply(int which, int a, int b) { return g_ops[which & 1](a, b); }
