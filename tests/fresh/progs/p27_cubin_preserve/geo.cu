__constant__ float c_proj[16];
__device__ float4 g_bounds;
__device__ float4 project(float4 p) {
  float4 r;
  r.x = c_proj[0] * p.x + c_proj[1] * p.y + c_proj[2] * p.z + c_proj[3];
  r.y = c_proj[4] * p.x + c_proj[5] * p.y + c_proj[6] * p.z + c_proj[7];
  r.z = c_proj[8] * p.x + c_proj[9] * p.y + c_proj[10] * p.z + c_proj[11];
  r.w = 1.f; return r;
}
