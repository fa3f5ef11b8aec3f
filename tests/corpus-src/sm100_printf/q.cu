#include <cstdio>
__global__ void print_other(double d) { printf("%f %s\n", d, "second TU"); }
