// Martin, Torres, Gavilanes, "CUDA Solutions for the SSSP Problem" (paper 003): Dijkstra's algorithm adapted to
// compound frontiers (DA2CF, Fig. 2), driven by a host loop
//     initialize; mssp = 0; while (mssp != INF) { relax(c, f, u); mssp = minimum(c, u); update(c, f, u, mssp); }
// - relax_F (Fig. 3 left): every frontier vertex relaxes its unresolved successors with atomicMin;
// - relax_U (Fig. 3 right): every unresolved vertex reads its predecessors (the transposed CSR) and keeps the least
//   c[j] + w(j, i) over frontier predecessors j; it alone writes c[i], so no atomics;
// - relax_U_plus (U^GPU_PLUS, section 4.2): relax_U with v[i + 1] shared through shared memory (each thread loads
//   v[i], the block's last thread also v[i + 1]) and f read through the read-only (texture) cache, __ldg;
// - minimum1 (Fig. 4 right, the SDK's reduce3): each block reduces 2 * blockDim values of (u[i] ? c[i] : INF) to
//   one; minimum2 reduces those block minimums once more; the host minimises what is left (one or two passes);
// - update (Fig. 4 left): f[i] = false; unresolved vertices with c[i] == mssp (c[i] <= mssp) leave U and form F.
//   (003 tests c[i] == mssp alone; the u[i] test only keeps a resolved vertex out of F when a zero-weight arc gives
//   the next minimum the same value. Resolved vertices never change c.)
// - matrix forms (section 5): the same relax_F / relax_U reading an n x n weight matrix (row = tail, column = head)
//   built on the device from the CSR; relax_U reads a column, coalesced across the threads of a warp.
// Keys as in seeds.cuh (exact integers, or the bits of non-negative doubles with 64-bit atomicMin).
#include "seeds.cuh"

using namespace seeds;

namespace {

constexpr int BLOCK = 256;

template <typename W>
__device__ void init(int n, u64* c, int* f, int* u, int source) {
    for (long long i = gtid(); i < n; i += gstride()) {
        bool s = i == source;
        c[i] = s ? 0 : W::INF;
        f[i] = s;
        u[i] = !s;
    }
}

template <typename W>
__device__ void relax_f(const int* __restrict__ v, const int* __restrict__ e, const typename W::type* __restrict__ w,
                        int n, u64* c, const int* f, const int* u) {
    for (long long t = gtid(); t < n; t += gstride()) {
        int i = (int)t;
        if (!f[i]) continue;
        u64 ci = c[i];
        for (int k = v[i]; k < v[i + 1]; k++) {
            int j = e[k];
            if (u[j]) {
                u64 nd = W::add(ci, w[k]);
                if (nd < c[j]) atomicMin(&c[j], nd);
            }
        }
    }
}

// v, e, w: predecessors (transposed CSR)
template <typename W>
__device__ void relax_u(const int* __restrict__ v, const int* __restrict__ e, const typename W::type* __restrict__ w,
                        int n, u64* c, const int* f, const int* u) {
    for (long long t = gtid(); t < n; t += gstride()) {
        int i = (int)t;
        if (!u[i]) continue;
        u64 best = c[i];
        for (int k = v[i]; k < v[i + 1]; k++) {
            int j = e[k];
            if (f[j]) {
                u64 nd = W::add(c[j], w[k]);
                if (nd < best) best = nd;
            }
        }
        if (best < c[i]) c[i] = best;
    }
}

// one thread per vertex (no grid stride: every thread of a block reaches the barrier)
template <typename W>
__device__ void relax_u_plus(const int* __restrict__ v, const int* __restrict__ e,
                             const typename W::type* __restrict__ w, int n, u64* c, const int* __restrict__ f,
                             const int* u) {
    __shared__ int sv[BLOCK + 1];
    long long t = gtid();
    int i = (int)t;
    bool in = t < n;
    if (in) {
        sv[threadIdx.x] = v[i];
        if (threadIdx.x == blockDim.x - 1 || i == n - 1) sv[threadIdx.x + 1] = v[i + 1];
    }
    __syncthreads();
    if (!in || !u[i]) return;
    int s = sv[threadIdx.x], end = sv[threadIdx.x + 1];
    u64 best = c[i];
    for (int k = s; k < end; k++) {
        int j = __ldg(&e[k]);
        if (__ldg(&f[j])) {
            u64 nd = W::add(c[j], __ldg(&w[k]));
            if (nd < best) best = nd;
        }
    }
    if (best < c[i]) c[i] = best;
}

template <typename W>
__device__ void matrix_fill(long long cells, typename W::mtype* m) {
    for (long long k = gtid(); k < cells; k += gstride()) m[k] = W::MNONE;
}

template <typename W>
__device__ void matrix_scatter(const int* __restrict__ v, const int* __restrict__ e,
                               const typename W::type* __restrict__ w, int n, typename W::mtype* m) {
    for (long long t = gtid(); t < n; t += gstride()) {
        int i = (int)t;
        for (int k = v[i]; k < v[i + 1]; k++) atomicMin(&m[(long long)i * n + e[k]], W::to_m(w[k]));
    }
}

template <typename W>
__device__ void relax_f_matrix(const typename W::mtype* __restrict__ m, int n, u64* c, const int* f, const int* u) {
    for (long long t = gtid(); t < n; t += gstride()) {
        int i = (int)t;
        if (!f[i]) continue;
        u64 ci = c[i];
        const typename W::mtype* row = m + (long long)i * n;
        for (int j = 0; j < n; j++) {
            typename W::mtype x = row[j];
            if (W::has(x) && u[j]) {
                u64 nd = W::madd(ci, x);
                if (nd < c[j]) atomicMin(&c[j], nd);
            }
        }
    }
}

template <typename W>
__device__ void relax_u_matrix(const typename W::mtype* __restrict__ m, int n, u64* c, const int* __restrict__ f,
                               const int* u) {
    for (long long t = gtid(); t < n; t += gstride()) {
        int j = (int)t;
        if (!u[j]) continue;
        u64 best = c[j];
        for (int i = 0; i < n; i++) {
            if (__ldg(&f[i])) {
                typename W::mtype x = m[(long long)i * n + j];
                if (W::has(x)) {
                    u64 nd = W::madd(c[i], x);
                    if (nd < best) best = nd;
                }
            }
        }
        if (best < c[j]) c[j] = best;
    }
}

__device__ __forceinline__ u64 umin(u64 a, u64 b) { return a < b ? a : b; }

// reduce3 over 2 * blockDim.x values per block (and a grid stride beyond), the block's minimum to out[blockIdx.x].
// Masked (minimum1) when u != nullptr; INF (all ones in both key forms' order: ~0 > any key) pads.
__device__ void reduce_min(const u64* c, const int* u, long long len, u64* out) {
    __shared__ u64 sdata[BLOCK];
    unsigned thid = threadIdx.x;
    u64 acc = ~0ull;
    for (long long i = (long long)blockIdx.x * (2 * blockDim.x) + thid; i < len;
         i += (long long)gridDim.x * (2 * blockDim.x)) {
        long long j = i + blockDim.x;
        u64 d1 = (u == nullptr || u[i]) ? c[i] : ~0ull;
        u64 d2 = j < len && (u == nullptr || u[j]) ? c[j] : ~0ull;
        acc = umin(acc, umin(d1, d2));
    }
    sdata[thid] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (thid < s) sdata[thid] = umin(sdata[thid], sdata[thid + s]);
        __syncthreads();
    }
    if (thid == 0) out[blockIdx.x] = sdata[0];
}

__device__ void update(int n, const u64* c, int* f, int* u, u64 mssp) {
    for (long long t = gtid(); t < n; t += gstride()) {
        int i = (int)t;
        f[i] = 0;
        if (u[i] && c[i] <= mssp) {
            u[i] = 0;
            f[i] = 1;
        }
    }
}

}  // namespace

#define DA2CF_TYPED(SUF, W)                                                                                          \
    extern "C" __global__ void da2cf_init_##SUF(int n, u64* c, int* f, int* u, int source) {                        \
        init<W>(n, c, f, u, source);                                                                                 \
    }                                                                                                                \
    extern "C" __global__ void da2cf_relax_f_##SUF(const int* __restrict__ v, const int* __restrict__ e,            \
                                                   const W::type* __restrict__ w, int n, u64* c, const int* f,      \
                                                   const int* u) {                                                   \
        relax_f<W>(v, e, w, n, c, f, u);                                                                             \
    }                                                                                                                \
    extern "C" __global__ void da2cf_relax_u_##SUF(const int* __restrict__ v, const int* __restrict__ e,            \
                                                   const W::type* __restrict__ w, int n, u64* c, const int* f,      \
                                                   const int* u) {                                                   \
        relax_u<W>(v, e, w, n, c, f, u);                                                                             \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(BLOCK) da2cf_relax_u_plus_##SUF(                                    \
        const int* __restrict__ v, const int* __restrict__ e, const W::type* __restrict__ w, int n, u64* c,          \
        const int* __restrict__ f, const int* u) {                                                                   \
        relax_u_plus<W>(v, e, w, n, c, f, u);                                                                        \
    }                                                                                                                \
    extern "C" __global__ void da2cf_matrix_fill_##SUF(long long cells, W::mtype* m) { matrix_fill<W>(cells, m); }   \
    extern "C" __global__ void da2cf_matrix_scatter_##SUF(const int* __restrict__ v, const int* __restrict__ e,     \
                                                          const W::type* __restrict__ w, int n, W::mtype* m) {       \
        matrix_scatter<W>(v, e, w, n, m);                                                                            \
    }                                                                                                                \
    extern "C" __global__ void da2cf_relax_f_matrix_##SUF(const W::mtype* __restrict__ m, int n, u64* c,           \
                                                          const int* f, const int* u) {                              \
        relax_f_matrix<W>(m, n, c, f, u);                                                                            \
    }                                                                                                                \
    extern "C" __global__ void da2cf_relax_u_matrix_##SUF(const W::mtype* __restrict__ m, int n, u64* c,           \
                                                          const int* __restrict__ f, const int* u) {                 \
        relax_u_matrix<W>(m, n, c, f, u);                                                                            \
    }                                                                                                                \
    extern "C" __global__ void da2cf_parents_##SUF(const int* __restrict__ row, const int* __restrict__ col,         \
                                                   const W::type* __restrict__ wt, int n,                            \
                                                   const u64* __restrict__ dist, int* parent, int source) {          \
        tight_parents<W>(row, col, wt, n, dist, parent, source);                                                     \
    }

DA2CF_TYPED(i32, IntWeights)
DA2CF_TYPED(f64, DoubleWeights)

extern "C" __global__ void __launch_bounds__(BLOCK) da2cf_minimum1(const u64* c, const int* u, int n, u64* out) {
    reduce_min(c, u, n, out);
}
extern "C" __global__ void __launch_bounds__(BLOCK) da2cf_minimum2(const u64* in, int len, u64* out) {
    reduce_min(in, nullptr, len, out);
}
extern "C" __global__ void da2cf_update(int n, const u64* c, int* f, int* u, u64 mssp) { update(n, c, f, u, mssp); }
