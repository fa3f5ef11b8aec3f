extern "C" __global__ void foo(int* o);
template<int N> __global__ void tk(int* o);
namespace ns { __global__ void nk(int* o); }
void go(int* o) { foo<<<1,1>>>(o); tk<1><<<1,1>>>(o); ns::nk<<<1,1>>>(o); }
