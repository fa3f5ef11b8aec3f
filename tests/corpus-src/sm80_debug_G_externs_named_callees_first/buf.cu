#include <cstdio>
#include <cstdlib>
__device__ void log_value(const char* tag, int i, double v);
__device__ void check_range(int i, int n);
struct Node { int key; Node* next; };
__device__ Node* push(Node* head, int k) {
  Node* n = (Node*)malloc(sizeof(Node));
  if (!n) { printf("malloc failed for key %d\n", k); return head; }
  n->key = k; n->next = head; return n;
}
__device__ void free_list(Node* h) { while (h) { Node* n = h->next; free(h); h = n; } }
__global__ void build_lists(const int* keys, int n, int* sums) {
  Node* h = nullptr;
  for (int i = threadIdx.x; i < n; i += blockDim.x) { check_range(i, n); h = push(h, keys[i]); }
  int s = 0;
  for (Node* p = h; p; p = p->next) s += p->key;
  sums[threadIdx.x] = s;
  if (threadIdx.x == 0) log_value("lists", blockIdx.x, s);
  free_list(h);
}
