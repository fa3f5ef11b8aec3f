#include <cstdio>
typedef float (*binop)(float, float);
extern __device__ binop op_table[3];
extern __device__ int *lut_mid;
extern __device__ const char *op_names[3];
__device__ binop chosen = nullptr;
struct Pair { int *p; binop f; };
extern __device__ int lut[8];
__device__ Pair pairs[2] = {{&lut[0], nullptr}, {&lut[7], nullptr}};
__global__ void apply(float *x, int which, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) { chosen = op_table[which % 3]; printf("%s %d\n", op_names[which % 3], *pairs[1].p); }
  if (i < n) x[i] = op_table[which % 3](x[i], (float)*lut_mid);
}
