extern __device__ int gv_host_only;
extern __constant__ int cv_host;
__global__ void ka(int* o);
__global__ void kc(int* o);
void launch(int* o) { ka<<<1,1>>>(o); kc<<<1,1>>>(o); int x=1; cudaMemcpyToSymbol(gv_host_only, &x, 4); cudaMemcpyToSymbol(cv_host, &x, 4);}
