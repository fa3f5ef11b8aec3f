// __device__ globals: initialized, zero-initialized, uninitialized, arrays, structs,
// pointers initialized with addresses (relocated data), and definitions used from another TU.
struct Pair { int a; long long b; };

__device__ int counter;                       // no initializer
__device__ int zero_init = 0;                 // explicit zero
__device__ int answer = 42;                   // initialized
__device__ long long big = 0x1122334455667788LL;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ double untouched_array[100];
__device__ Pair pair = {7, -1};
__device__ int *ptr_to_answer = &answer;      // pointer initializer: relocation in .nv.global.init
__device__ char message[] = "hello, device";
static __device__ int file_local = 5;         // internal linkage

__device__ __noinline__ int read_local() { return file_local++; }
