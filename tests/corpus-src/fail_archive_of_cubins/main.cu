// Uses part_a (which needs part_c); part_b is never referenced.
extern __device__ int part_a(int);
__global__ void archive_user(int *p) { p[0] = part_a(p[1]); }
