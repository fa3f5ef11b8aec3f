// 64-bit integer to float conversions (I2F.U64, I2F.S64, I2F.F64.S64) in kernels nvlink
// re-allocates the scoreboards of in the final link.
__global__ void c_u64_f32(const unsigned long long* a, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = (float)a[i] * 0.5f; }
__global__ void c_s64_f32(const long long* a, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = (float)a[i] + (float)a[i + n]; }
__global__ void c_s64_f64(const long long* a, double* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = (double)a[i]; }
__global__ void c_loop(const unsigned long long* a, float* o, int n) { float s = 0; for (int i = threadIdx.x; i < n; i += blockDim.x) s += (float)a[i]; o[threadIdx.x] = s; }
