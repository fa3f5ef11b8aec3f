extern "C" __global__ void fp64a(double *o, const double *a, int n){ int i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n){ double x=a[i]; o[i]=x*x+3.0*x-1.0; } }
extern "C" __global__ void fp64b(double *o, const double *a, int n){ int i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n){ double x=a[i]; o[i]=sqrt(x)+1.0/x; } }
extern "C" __global__ void cvt64(long long *o, const double *a, const float *b, int n){ int i=threadIdx.x; o[i]=(long long)a[i] + (long long)b[i]; }
extern "C" __global__ void cvt64b(double *o, const long long *a, const unsigned long long *b, float *f){ int i=threadIdx.x; o[i]=(double)a[i]+(double)b[i]; f[i]=(float)a[i]; }
extern "C" __global__ void popc(int *o, const unsigned *a){ int i=threadIdx.x; unsigned x=a[i]; o[i]=__popc(x)+__clz(x)*3+__ffs(x); }
extern "C" __global__ void mufu(float *o, const float *a){ int i=threadIdx.x; float x=a[i]; o[i]=__expf(x)+__logf(x)*__sinf(x)+rsqrtf(x); }
extern "C" __global__ void plain(int *o, const int *a){ int i=threadIdx.x; o[i]=a[i]*3+a[i+1]; }
extern "C" __global__ void f32(float *o, const float *a){ int i=threadIdx.x; o[i]=a[i]*3.f+a[i+1]/a[i+2]; }
