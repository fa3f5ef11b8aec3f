extern "C" __global__ void pm(float *o, const unsigned *a, const float *b){ int i=threadIdx.x;
#pragma unroll
for(int k=0;k<4;k++) o[i+k*32]=(float)__popc(a[i+k*32]) + __expf(b[i+k*32]); }
extern "C" __global__ void pi(double *o, const unsigned *a, const long long *b){ int i=threadIdx.x;
#pragma unroll
for(int k=0;k<4;k++) o[i+k*32]=(double)__popc(a[i+k*32]) + (double)b[i+k*32]; }
extern "C" __global__ void mi(double *o, const float *a, const long long *b){ int i=threadIdx.x;
#pragma unroll
for(int k=0;k<4;k++) o[i+k*32]=__expf(a[i+k*32]) * (double)b[i+k*32]; }
extern "C" __global__ void di(double *o, const double *a, const long long *b){ int i=threadIdx.x;
#pragma unroll
for(int k=0;k<4;k++) o[i+k*32]=a[i+k*32]*a[i+k*32] + (double)b[i+k*32]; }
