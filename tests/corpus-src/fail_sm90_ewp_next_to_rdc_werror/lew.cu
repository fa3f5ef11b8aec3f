__global__ void lew(int*p){p[0]=2;}
