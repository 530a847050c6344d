// GPU APSP (paper 004, Harish & Narayanan, section 3.4), on an n x n distance matrix D in device memory.
// Element types: i32 (integral weights, every path below 2^30), i64 (integral weights), f64 (other weights);
// INF is the type's max (i32, i64) or +infinity (f64). Weights arrive as doubles and are converted per arc.
//
// floyd-warshall (004 Algorithm 6): for every k one launch of fw_k with n^2 threads (grid-stride), thread (i, j):
//   D[i][j] = min(D[i][j], D[i][k] + D[k][j]). In place is safe: row k and column k do not change in step k.
// fw_blocked_*: option blocked=1, the tiled 3-phase Floyd-Warshall (32 x 32 tiles in shared memory, 256 threads
//   per block, each thread 4 rows of a tile), 3 launches per tile step.
// repeated-sssp (004 Algorithm 7): 004's two-kernel SSSP (mask M, cost C, updating cost U) from a batch of sources
// at once: C is the batch's rows of D; sssp_relax: every masked (s, u) clears its mask and atomicMin's
// C[s][u] + w into U[s][v] for its arcs; sssp_update: where U < C, C = U, mask set, flag set; then U = C.
// The host repeats the pair until no flag. atomicMin on U makes it free of the write-after-write race of 004's
// original (003, Fig. 5). A batch of 1 source is 004's per-source loop exactly.
#include <cstdint>
#include <cfloat>
#include <climits>

namespace {
constexpr int THREADS = 256;
constexpr int TILE = 32;

template <typename T> struct Inf;
template <> struct Inf<int> { __device__ static int v() { return INT_MAX; } };
template <> struct Inf<long long> { __device__ static long long v() { return LLONG_MAX; } };
template <> struct Inf<double> { __device__ static double v() { return __longlong_as_double(0x7ff0000000000000LL); } };

template <typename T> __device__ __forceinline__ T conv(double w) { return (T)w; }

template <typename T> __device__ __forceinline__ T add(T a, T b) {
    return (a == Inf<T>::v() || b == Inf<T>::v()) ? Inf<T>::v() : a + b;
}

__device__ __forceinline__ void atomic_min(int* p, int x) { atomicMin(p, x); }
__device__ __forceinline__ void atomic_min(long long* p, long long x) { atomicMin(p, x); }
__device__ __forceinline__ void atomic_min(double* p, double x) {
    unsigned long long* q = reinterpret_cast<unsigned long long*>(p);
    unsigned long long old = *q;
    while (__longlong_as_double((long long)old) > x) {
        unsigned long long prev = atomicCAS(q, old, (unsigned long long)__double_as_longlong(x));
        if (prev == old) break;
        old = prev;
    }
}

__device__ __forceinline__ long long gtid() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long long gstride() { return (long long)gridDim.x * blockDim.x; }

// D = INF off the diagonal, 0 on it
template <typename T> __device__ void fill(int n, T* D) {
    long long total = (long long)n * n;
    for (long long i = gtid(); i < total; i += gstride()) D[i] = (i / n == i % n) ? (T)0 : Inf<T>::v();
}

// D[u][v] = min over arcs u->v (thread per row: rows are written by one thread each)
template <typename T> __device__ void arcs(int n, const int* off, const int* col, const double* w, T* D) {
    for (long long u = gtid(); u < n; u += gstride()) {
        for (int a = off[u]; a < off[u + 1]; a++) {
            int v = col[a];
            if (v == u) continue;
            T x = conv<T>(w[a]);
            long long i = u * (long long)n + v;
            if (x < D[i]) D[i] = x;
        }
    }
}

template <typename T> __device__ void fw_k(int n, int k, T* D) {
    long long total = (long long)n * n;
    for (long long idx = gtid(); idx < total; idx += gstride()) {
        long long i = idx / n, j = idx - i * n;
        T via = add(D[i * n + k], D[(long long)k * n + j]);
        if (via < D[idx]) D[idx] = via;
    }
}

template <typename T> __device__ __forceinline__ T load(const T* D, int n, int r, int c) {
    return (r < n && c < n) ? D[(long long)r * n + c] : Inf<T>::v();
}

// phase 1: the diagonal tile kb
template <typename T> __device__ void fw_p1(int n, int kb, T* D) {
    __shared__ T t[TILE][TILE];
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE, base = kb * TILE;
    for (int r = ty; r < TILE; r += THREADS / TILE) t[r][tx] = load(D, n, base + r, base + tx);
    __syncthreads();
    for (int k = 0; k < TILE; k++) {
        for (int r = ty; r < TILE; r += THREADS / TILE) {
            T via = add(t[r][k], t[k][tx]);
            if (via < t[r][tx]) t[r][tx] = via;
        }
        __syncthreads();
    }
    for (int r = ty; r < TILE; r += THREADS / TILE)
        if (base + r < n && base + tx < n) D[(long long)(base + r) * n + base + tx] = t[r][tx];
}

// phase 2: the tiles of row kb (blockIdx.x < tiles) and column kb (blockIdx.x >= tiles)
template <typename T> __device__ void fw_p2(int n, int kb, int tiles, T* D) {
    __shared__ T dg[TILE][TILE];
    __shared__ T t[TILE][TILE];
    bool rowTile = blockIdx.x < tiles;
    int other = rowTile ? blockIdx.x : blockIdx.x - tiles;
    if (other == kb) return;
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE, base = kb * TILE;
    int r0 = rowTile ? base : other * TILE, c0 = rowTile ? other * TILE : base;
    for (int r = ty; r < TILE; r += THREADS / TILE) {
        dg[r][tx] = load(D, n, base + r, base + tx);
        t[r][tx] = load(D, n, r0 + r, c0 + tx);
    }
    __syncthreads();
    for (int k = 0; k < TILE; k++) {
        for (int r = ty; r < TILE; r += THREADS / TILE) {
            T via = rowTile ? add(dg[r][k], t[k][tx]) : add(t[r][k], dg[k][tx]);
            if (via < t[r][tx]) t[r][tx] = via;
        }
        __syncthreads();
    }
    for (int r = ty; r < TILE; r += THREADS / TILE)
        if (r0 + r < n && c0 + tx < n) D[(long long)(r0 + r) * n + c0 + tx] = t[r][tx];
}

// phase 3: every other tile (i, j), from tile (i, kb) and tile (kb, j)
template <typename T> __device__ void fw_p3(int n, int kb, int tiles, T* D) {
    __shared__ T a[TILE][TILE];
    __shared__ T b[TILE][TILE];
    int bi = blockIdx.x / tiles, bj = blockIdx.x % tiles;
    if (bi == kb || bj == kb) return;
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE, base = kb * TILE;
    for (int r = ty; r < TILE; r += THREADS / TILE) {
        a[r][tx] = load(D, n, bi * TILE + r, base + tx);
        b[r][tx] = load(D, n, base + r, bj * TILE + tx);
    }
    __syncthreads();
    for (int r = ty; r < TILE; r += THREADS / TILE) {
        int gi = bi * TILE + r, gj = bj * TILE + tx;
        if (gi >= n || gj >= n) continue;
        T best = D[(long long)gi * n + gj];
        for (int k = 0; k < TILE; k++) {
            T via = add(a[r][k], b[k][tx]);
            if (via < best) best = via;
        }
        D[(long long)gi * n + gj] = best;
    }
}

// batch init: rows s0..s0+S-1; C = D rows, U, mask
template <typename T> __device__ void sssp_init(int n, int s0, int S, T* D, T* U, int* M) {
    long long total = (long long)S * n;
    for (long long i = gtid(); i < total; i += gstride()) {
        long long s = i / n, v = i - s * n;
        bool src = (s0 + s == v);
        T x = src ? (T)0 : Inf<T>::v();
        D[(s0 + s) * n + v] = x;
        U[i] = x;
        M[i] = src ? 1 : 0;
    }
}

template <typename T> __device__ void sssp_relax(int n, int s0, int S, const int* off, const int* col, const double* w,
                                                 const T* D, T* U, int* M) {
    long long total = (long long)S * n;
    for (long long i = gtid(); i < total; i += gstride()) {
        if (!M[i]) continue;
        M[i] = 0;
        long long s = i / n, u = i - s * n;
        T du = D[(s0 + s) * n + u];
        for (int a = off[u]; a < off[u + 1]; a++) {
            T nd = add(du, conv<T>(w[a]));
            long long j = s * n + col[a];
            if (nd < U[j]) atomic_min(&U[j], nd);
        }
    }
}

template <typename T> __device__ void sssp_update(int n, int s0, int S, T* D, T* U, int* M, int* flag) {
    long long total = (long long)S * n;
    bool any = false;
    for (long long i = gtid(); i < total; i += gstride()) {
        long long s = i / n, v = i - s * n;
        long long di = (s0 + s) * n + v;
        T u = U[i];
        if (u < D[di]) {
            D[di] = u;
            M[i] = 1;
            any = true;
        }
        U[i] = D[di];
    }
    if (any) *flag = 1;
}
}  // namespace

#define APSP_KERNELS(T, S)                                                                                            \
    extern "C" __global__ void apsp_fill_##S(int n, T* D) { fill<T>(n, D); }                                          \
    extern "C" __global__ void apsp_arcs_##S(int n, const int* off, const int* col, const double* w, T* D) {          \
        arcs<T>(n, off, col, w, D);                                                                                   \
    }                                                                                                                 \
    extern "C" __global__ void fw_k_##S(int n, int k, T* D) { fw_k<T>(n, k, D); }                                     \
    extern "C" __global__ void fw_p1_##S(int n, int kb, T* D) { fw_p1<T>(n, kb, D); }                                 \
    extern "C" __global__ void fw_p2_##S(int n, int kb, int tiles, T* D) { fw_p2<T>(n, kb, tiles, D); }               \
    extern "C" __global__ void fw_p3_##S(int n, int kb, int tiles, T* D) { fw_p3<T>(n, kb, tiles, D); }               \
    extern "C" __global__ void sssp_init_##S(int n, int s0, int cnt, T* D, T* U, int* M) {                            \
        sssp_init<T>(n, s0, cnt, D, U, M);                                                                            \
    }                                                                                                                 \
    extern "C" __global__ void sssp_relax_##S(int n, int s0, int cnt, const int* off, const int* col,                 \
                                              const double* w, const T* D, T* U, int* M) {                            \
        sssp_relax<T>(n, s0, cnt, off, col, w, D, U, M);                                                              \
    }                                                                                                                 \
    extern "C" __global__ void sssp_update_##S(int n, int s0, int cnt, T* D, T* U, int* M, int* flag) {               \
        sssp_update<T>(n, s0, cnt, D, U, M, flag);                                                                    \
    }

APSP_KERNELS(int, i32)
APSP_KERNELS(long long, i64)
APSP_KERNELS(double, f64)
