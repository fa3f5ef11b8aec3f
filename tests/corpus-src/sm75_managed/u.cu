extern __managed__ int m_counter;
__managed__ double m_second = 1.25;
__global__ void read_managed(double *out) { out[0] = m_counter + m_second; }
