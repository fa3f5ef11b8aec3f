__device__ void log_value(const char* tag, int i, double v) { printf("%s %d %f\n", tag, i, v); }
