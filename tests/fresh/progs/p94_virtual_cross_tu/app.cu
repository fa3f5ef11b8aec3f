#include "v.h"
struct alignas(16) Slot { unsigned char bytes[64]; };
__global__ void build_and_eval(Slot* slots, float* out, int n) {
  __shared__ Node* nodes[64];
  int i = threadIdx.x;
  if (i < n && i < 64) nodes[i] = make_node(&slots[i], i, 0.5f * i);
  __syncthreads();
  if (i == 0) out[0] = eval_all(nodes, n < 64 ? n : 64, 1.5f);
  __syncthreads();
  if (i < n && i < 64) nodes[i]->~Node();
}
__global__ void wrapped(float* out) { Wrap<double> w(2, 1.0); Node* n = &w; out[threadIdx.x] = n->eval(threadIdx.x); }
