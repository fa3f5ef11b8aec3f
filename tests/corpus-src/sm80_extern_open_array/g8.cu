__device__ int garr[8];
