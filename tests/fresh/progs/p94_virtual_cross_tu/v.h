#pragma once
#include <new>
struct Node {
  int id;
  __device__ Node(int i) : id(i) {}
  __device__ virtual ~Node();
  __device__ virtual float eval(float x) const;   // key function: base.cu
  __device__ virtual int kind() const { return 0; }
};
struct Lin : Node {
  float a, b;
  __device__ Lin(int i, float a, float b) : Node(i), a(a), b(b) {}
  __device__ float eval(float x) const override;  // derived.cu
  __device__ int kind() const override;
};
struct Quad : Lin {
  float c;
  __device__ Quad(int i, float a, float b, float c) : Lin(i, a, b), c(c) {}
  __device__ float eval(float x) const override;  // derived.cu
};
struct Tagged { __device__ virtual unsigned tag() const; int t = 7; };
struct Both : Tagged, Node {                      // multi.cu: thunks for the second base
  __device__ Both(int i) : Node(i) {}
  __device__ float eval(float x) const override;
  __device__ unsigned tag() const override;
  __device__ ~Both() override;
};
template <typename T> struct Wrap : Node {
  T v;
  __device__ Wrap(int i, T v) : Node(i), v(v) {}
  __device__ float eval(float x) const override { return (float)v * x + Node::eval(x); }
  __device__ int kind() const override { return sizeof(T); }
};
__device__ Node* make_node(void* where, int k, float p);
__device__ float eval_all(Node** ns, int n, float x);
