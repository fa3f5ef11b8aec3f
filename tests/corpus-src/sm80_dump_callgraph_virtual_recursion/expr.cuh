#pragma once
struct Expr { __device__ virtual double eval(const double* vars) const = 0; };
struct Num : Expr { double v; __device__ Num(double v) : v(v) {} __device__ double eval(const double*) const override { return v; } };
struct Var : Expr { int i; __device__ Var(int i) : i(i) {} __device__ double eval(const double* x) const override; };
struct Bin : Expr { char op; Expr *l, *r; __device__ Bin(char o, Expr* l, Expr* r) : op(o), l(l), r(r) {} __device__ double eval(const double* x) const override; };
__device__ Expr* parse(const char*& s);
