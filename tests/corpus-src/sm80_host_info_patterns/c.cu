extern "C" __global__ void foo(int* o) { o[0] = 1; }
extern "C" __global__ void foobar(int* o) { o[0] = 2; }
extern "C" __global__ void xfoo(int* o) { o[0] = 3; }
template<int N> __global__ void tk(int* o) { o[0] = N; }
template __global__ void tk<1>(int*);
template __global__ void tk<2>(int*);
namespace ns { __global__ void nk(int* o) { o[0] = 7; } __global__ void nk2(int* o) { o[0] = 8; } }
