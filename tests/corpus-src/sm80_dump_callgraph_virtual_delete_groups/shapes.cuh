#pragma once
struct Shape { __device__ virtual float area() const = 0; __device__ virtual const char* name() const { return "shape"; } __device__ virtual ~Shape() {} };
struct Circle : Shape { float r; __device__ Circle(float r) : r(r) {} __device__ float area() const override; };
struct Rect : Shape { float w, h; __device__ Rect(float w, float h) : w(w), h(h) {} __device__ float area() const override; __device__ const char* name() const override; };
typedef float (*unary_fn)(float);
extern __device__ unary_fn g_ops[4];
__device__ Shape* make_shape(int kind, float a, float b);
