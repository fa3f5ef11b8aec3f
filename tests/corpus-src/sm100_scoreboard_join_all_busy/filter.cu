// An 8-tap filter whose coefficients come from a __constant__ table: the unrolled loop issues
// eight global loads and ten constant loads, and the 16-bit constant load of `c.tag` finds all
// six scoreboards busy with producers first needed after its own consumer. nvlink, allocating
// this kernel's scoreboards again in the final link, joins it to the scoreboard that will be
// released first: one holding only an earlier constant load (not the one needed soonest, which
// also holds a global load).
struct Coeff { float w[8]; int shift; short tag; char name[6]; };
__constant__ Coeff c_filters[16];
__constant__ int c_nfilters = 16;
__device__ int g_counts[64];

__global__ void apply_filter(const float* in, float* out, int n, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || which >= c_nfilters) return;
  const Coeff& c = c_filters[which];
  float s = 0.f;
  for (int k = 0; k < 8; ++k) s += c.w[k] * in[min(i + k, n - 1)];
  out[i] = s * (1 << c.shift);
  atomicAdd(&g_counts[c.tag & 63], 1);
}
