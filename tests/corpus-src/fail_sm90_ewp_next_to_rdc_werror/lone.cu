__global__ void lone(int*p){p[0]=1;}
