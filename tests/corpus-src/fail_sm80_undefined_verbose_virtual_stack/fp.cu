// Function pointers in device tables, address-taken functions, virtual functions.
typedef float (*unary_fn)(float);
__device__ float op_neg(float v) { return -v; }
__device__ float op_sq(float v) { return v * v; }
__device__ float op_half(float v) { return v * 0.5f; }
__device__ float op_never_taken(float v) { return v + 100.0f; }   // not address-taken, dead

__device__ unary_fn op_table[3] = {op_neg, op_sq, op_half};       // pointers in .nv.global.init

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Square : Shape {
    float s;
    __device__ Square(float s) : s(s) {}
    __device__ float area() const override { return s * s; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r) : r(r) {}
    __device__ float area() const override { return 3.14159f * r * r; }
};

extern __device__ float apply_external(unary_fn f, float v);

__global__ void call_through_table(float *p)
{
    unary_fn f = op_table[threadIdx.x % 3];
    p[threadIdx.x] = apply_external(f, p[threadIdx.x]);
}

__global__ void call_virtual(float *p, int which)
{
    Square sq(p[0]);
    Circle ci(p[1]);
    Shape *s = which ? (Shape *)&sq : (Shape *)&ci;
    p[2] = s->area();
}
