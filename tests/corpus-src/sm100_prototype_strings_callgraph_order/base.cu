#include "v.h"
__device__ Node::~Node() {}
__device__ float Node::eval(float x) const { return x + id; }
