#include "expr.cuh"
__device__ double Var::eval(const double* x) const { return x[i]; }
__device__ double Bin::eval(const double* x) const {
  double a = l->eval(x), b = r->eval(x);
  switch (op) { case '+': return a + b; case '-': return a - b; case '*': return a * b; default: return a / b; }
}
