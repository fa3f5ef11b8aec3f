// Variables shared by the three TUs: each is defined in exactly one of them.
struct Coeffs { float c[8]; int n; };
extern __managed__ int m_count;          // defined in state.cu
extern __managed__ float m_hist[64];     // defined in state.cu
extern __constant__ Coeffs k_coeffs;     // defined in table.cu
extern __constant__ int k_perm[32];      // defined in table.cu
extern __device__ float d_scale;         // defined in table.cu
extern __device__ int *d_ring;           // defined in state.cu
__device__ float apply(float x);         // table.cu
__device__ void record(int bin);         // state.cu
