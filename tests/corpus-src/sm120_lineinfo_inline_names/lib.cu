struct V2 { float x, y; };
__device__ inline V2 operator+(V2 a, V2 b) { return {a.x + b.x, a.y + b.y}; }
__device__ inline float dot(V2 a, V2 b) { return a.x * b.x + a.y * b.y; }
__device__ float lib_len(V2 v)
{
    V2 w = v + v;
    return sqrtf(dot(w, w)) * 0.5f;
}
