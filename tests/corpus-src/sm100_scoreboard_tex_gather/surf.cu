__global__ void surf_rw(cudaSurfaceObject_t s, int w) {
  int x = threadIdx.x;
  float v = surf2Dread<float>(s, x * 4, 0, cudaBoundaryModeClamp);
  surf2Dwrite(v * 2.f, s, x * 4, 1);
  surf1Dwrite(v, s, x * 4);
  float4 g = tex2Dgather<float4>((cudaTextureObject_t)s, 0.5f, 0.5f, 1);
  surf3Dwrite(g.x, s, x * 4, 0, 0);
}
