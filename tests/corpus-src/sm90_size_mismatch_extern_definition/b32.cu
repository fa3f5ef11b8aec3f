__constant__ int ctab[32] = {1,2,3};
