__device__ int from_fatbin(int x) { return x ^ 0x55; }
__device__ float fat_table[4] = {1, 2, 3, 4};
