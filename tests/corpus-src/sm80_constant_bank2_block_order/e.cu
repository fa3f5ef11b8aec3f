__device__ __noinline__ double f1(double x) { return x * 1.1111111111111; }
__device__ __noinline__ double f2(double x) { return x * 2.2222222222222; }
__device__ __noinline__ double f3(double x) { return x * 3.3333333333333; }
__device__ __noinline__ double fbig(double x) { return x * 4.4444444444444 + 5.5555555555555 * x * x; }
__global__ void kall(double *d) { d[0] = f1(d[1]) + f2(d[2]) + f3(d[3]) + fbig(d[4]); }
__global__ void k3(double *d) { d[0] = f3(d[1]); }
__global__ void kown(double *d) { d[0] = f2(d[1]) * 7.7777777777777; }
