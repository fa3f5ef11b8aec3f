struct B { __device__ virtual int f() const { return 1; } __device__ virtual int g() const { return 10; } };
