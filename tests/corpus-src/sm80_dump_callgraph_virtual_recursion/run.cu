#include "expr.cuh"
__global__ void evaluate(const char* src, const double* vars, double* out) { const char* s = src; Expr* e = parse(s); out[threadIdx.x] = e->eval(vars + threadIdx.x * 4); }
void go(const char* s, const double* v, double* o) { evaluate<<<1, 32>>>(s, v, o); }
