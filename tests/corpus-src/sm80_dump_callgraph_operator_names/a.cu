#include "ops.h"
__global__ void use_ops(float* f, int* o, long long* l) {
  Add add{f[2]};
  f[0] = add(f[0], f[1]);
  V<int> a{o[0]}, b{o[1]};
  o[2] = a < b;
  o[3] = (a - b).x;
  V<long long> c{l[0]}, d{l[1]};
  o[4] = c != d;
  Tag t{o[5]};
  int* p = new (&t) int(7);
  o[6] = *p + t.n;
  Arr r{{o[0], o[1], o[2], o[3]}};
  r += o[7];
  o[8] = r[o[9]];
}
