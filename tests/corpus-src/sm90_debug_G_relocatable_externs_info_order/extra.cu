// A second library member: another derived class overriding scale and more instantiations.
#include "shapes.h"
struct Ring : Circle {
  float inner;
  __device__ Ring(float r, float i) : Circle(r), inner(i) {}
  __device__ float area() const override { return Circle::area() - 3.14159265f * inner * inner; }
};
__device__ Shape* make_ring(float r, float i) { return new Ring(r, i); }
__device__ double sum_doubles(const double* p, int n) { Stats<double>::add(p[0]); return clamp_sum<double>(p, n, 1e9); }
