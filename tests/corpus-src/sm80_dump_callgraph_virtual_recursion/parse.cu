#include "expr.cuh"
__device__ Expr* parse_term(const char*& s);
__device__ Expr* parse(const char*& s) {
  Expr* e = parse_term(s);
  while (*s == '+' || *s == '-') { char o = *s++; e = new Bin(o, e, parse_term(s)); }
  return e;
}
__device__ Expr* parse_atom(const char*& s) {
  if (*s == '(') { ++s; Expr* e = parse(s); ++s; return e; }
  if (*s == 'x') { ++s; return new Var(*s++ - '0'); }
  double v = 0; while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
  return new Num(v);
}
__device__ Expr* parse_term(const char*& s) {
  Expr* e = parse_atom(s);
  while (*s == '*' || *s == '/') { char o = *s++; e = new Bin(o, e, parse_atom(s)); }
  return e;
}
