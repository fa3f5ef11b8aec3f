// ptxas clones a recursive function (`_Z4walkPii$1`); --dump-callgraph names the clone as the
// function itself.
__device__ int walk(int *a, int n) { return n <= 0 ? a[0] : a[n] + walk(a, n - 1); }
__global__ void recur(int *a, int n) { a[0] = walk(a, n); }
__global__ void reads(int *o) { o[2] = 4; }
