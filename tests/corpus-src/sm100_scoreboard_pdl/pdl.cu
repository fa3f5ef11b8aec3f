// Programmatic dependent launch: griddepcontrol.wait (ACQBULK) before the first global read,
// griddepcontrol.launch_dependents (PREEXIT) once the block has loaded its inputs.
__global__ void pdl_scale(const float* __restrict__ in, float* __restrict__ out, float s, int n) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  float w = i + 1 < n ? in[i + 1] : 0.f;
  asm volatile("griddepcontrol.launch_dependents;");
  if (i < n) out[i] = v * s + w;
}
__global__ void pdl_init(int* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = 0;
  asm volatile("griddepcontrol.launch_dependents;");
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (i == 0) flags[n] = n;
}
