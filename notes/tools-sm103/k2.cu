#define N 6
extern "C" __global__ void popcs(int *o, const unsigned *a){ int i=threadIdx.x; unsigned x[N]; for(int k=0;k<N;k++) x[k]=a[i+k*32]; int s=0; 
#pragma unroll
for(int k=0;k<N;k++) s+= __popc(x[k])<<k; o[i]=s; }
extern "C" __global__ void dfmas(double *o, const double *a){ int i=threadIdx.x; double x[N]; for(int k=0;k<N;k++) x[k]=a[i+k*32]; double s=0; 
#pragma unroll
for(int k=0;k<N;k++) x[k]=x[k]*x[k]+1.5; for(int k=0;k<N;k++) o[i+k*32]=x[k]; }
extern "C" __global__ void cvts(double *o, const long long *a){ int i=threadIdx.x; long long x[N]; for(int k=0;k<N;k++) x[k]=a[i+k*32]; 
#pragma unroll
for(int k=0;k<N;k++) o[i+k*32]=(double)x[k]; }
extern "C" __global__ void mufus(float *o, const float *a){ int i=threadIdx.x; float x[N]; for(int k=0;k<N;k++) x[k]=a[i+k*32]; 
#pragma unroll
for(int k=0;k<N;k++) o[i+k*32]=__expf(x[k]); }
extern "C" __global__ void mixed(double *o, const double *a, const unsigned *b){ int i=threadIdx.x; double x=a[i]; unsigned y=b[i]; long long z=(long long)x; o[i]=x*x + __popc(y) + (double)(z>>3) + __sinf((float)y); }
