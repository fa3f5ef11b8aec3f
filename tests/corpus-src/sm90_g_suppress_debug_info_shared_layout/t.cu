extern __device__ float reduce_in_function(float v);
__global__ void shared_via_other_tu(float *out) { out[0] = reduce_in_function(out[1]); }
