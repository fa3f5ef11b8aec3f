#pragma once
extern __device__ float samples[];
extern __device__ int lut[];
extern __constant__ float big_coef[6144];
extern __constant__ short big_idx[8192];
extern __managed__ int m_hist[64];
extern __managed__ double m_state;
typedef float (*op_t)(float);
struct Entry { const char *name; op_t fn; int *counter; };
extern __device__ Entry op_table[4];
struct Views { float *mid; int *lut_tail; const float *coef; };
extern __constant__ Views c_views;
extern __device__ const char *messages[3];
extern __device__ float *cursor;
__device__ float op_sq(float), op_neg(float), op_half(float), op_id(float);
