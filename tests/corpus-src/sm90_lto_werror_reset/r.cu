// Recursion (stack size unknown at link time) and a deep non-recursive chain across TUs.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ int even(int n);
__device__ __noinline__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }
__device__ __noinline__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }

__global__ void recursive_kernel(int *p) { p[0] = fib(p[1]) + even(p[2]); }
