struct E { __device__ virtual int eval() const = 0; __device__ virtual float fval(float) const = 0; };
struct V : E { int i; __device__ V(int i) : i(i) {} __device__ int eval() const override; __device__ float fval(float x) const override; };
