extern "C" __device__ double g(double x);
__device__ double (*volatile p1)(double) = g;
__global__ void B(double* o) { o[0] = p1(o[1]); }
