enum Color { Red, Green = 5 };
enum class Mode : int { A = 1, B = 7 };
template <typename T> struct W {};
template <int I> __global__ void ki(int *o) { o[0] = I; }
template <unsigned U> __global__ void ku(int *o) { o[0] = U; }
template <long L> __global__ void kl(int *o) { o[0] = L; }
template <unsigned long long Q> __global__ void kq(int *o) { o[0] = Q; }
template <bool B> __global__ void kb(int *o) { o[0] = B; }
template <char C> __global__ void kc(int *o) { o[0] = C; }
template <short S> __global__ void ks(int *o) { o[0] = S; }
template <Color C> __global__ void ke(int *o) { o[0] = C; }
template <Mode M> __global__ void km(int *o) { o[0] = (int)M; }
template <typename T> __global__ void kt(int *o) { o[0] = sizeof(T); }
template __global__ void ki<-3>(int *);
template __global__ void ki<0>(int *);
template __global__ void ku<4u>(int *);
template __global__ void kl<5l>(int *);
template __global__ void kq<6ull>(int *);
template __global__ void kb<true>(int *);
template __global__ void kc<'a'>(int *);
template __global__ void ks<9>(int *);
template __global__ void ke<Green>(int *);
template __global__ void km<Mode::B>(int *);
template __global__ void kt<W<W<int>>>(int *);
template __global__ void kt<const volatile unsigned char *>(int *);
template __global__ void kt<W<int (*)(float, double &)>>(int *);
