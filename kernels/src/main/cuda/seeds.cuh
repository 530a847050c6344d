// Shared device helpers of the seed-paper variants (bfs_harish.cu, sssp_harish.cu, sssp_da2cf.cu).
//
// SSSP distances are 64-bit keys ordered like the distances, so atomicMin on the key is a relax (as in sssp.cu):
// - integer weights (*_i32): the key is the exact integer distance, INF = ~0;
// - other weights (*_f64): the key is the bit pattern of a non-negative double (non-negative doubles order like
//   their bit patterns), INF = the bits of +infinity; dist + w is the same correctly rounded double the CPU computes.
#pragma once
#include <cstdint>

namespace seeds {

typedef unsigned long long u64;

struct IntWeights {
    typedef int type;
    // adjacency-matrix entry: int weight, NONE = INT_MAX (no arc); atomicMin keeps the lightest parallel arc
    typedef int mtype;
    static constexpr u64 INF = ~0ull;
    static constexpr int MNONE = 0x7fffffff;
    __device__ static __forceinline__ u64 add(u64 d, int w) { return d + (u64)w; }
    __device__ static __forceinline__ int to_m(int w) { return w; }
    __device__ static __forceinline__ bool has(int m) { return m != MNONE; }
    __device__ static __forceinline__ u64 madd(u64 d, int m) { return d + (u64)m; }
};

struct DoubleWeights {
    typedef double type;
    typedef u64 mtype;  // the bits of the (non-negative) weight; NONE = +infinity
    static constexpr u64 INF = 0x7FF0000000000000ull;
    static constexpr u64 MNONE = 0x7FF0000000000000ull;
    __device__ static __forceinline__ u64 add(u64 d, double w) {
        return (u64)__double_as_longlong(__longlong_as_double((long long)d) + w);
    }
    __device__ static __forceinline__ u64 to_m(double w) { return (u64)__double_as_longlong(w); }
    __device__ static __forceinline__ bool has(u64 m) { return m != MNONE; }
    __device__ static __forceinline__ u64 madd(u64 d, u64 m) {
        return (u64)__double_as_longlong(__longlong_as_double((long long)d) + __longlong_as_double((long long)m));
    }
};

__device__ __forceinline__ long long gtid() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long long gstride() { return (long long)gridDim.x * blockDim.x; }

// parent[v] = some u with dist[u] + w(u, v) == dist[v] (v != source), one thread per vertex u, after convergence.
// A shortest-path tree when every weight is positive (with zero weights the host builds the tree instead).
template <typename W>
__device__ __forceinline__ void tight_parents(const int* __restrict__ row, const int* __restrict__ col,
                                              const typename W::type* __restrict__ wt, int n,
                                              const u64* __restrict__ dist, int* parent, int source) {
    for (long long i = gtid(); i < n; i += gstride()) {
        int u = (int)i;
        u64 du = dist[u];
        if (du == W::INF) continue;
        for (int k = row[u]; k < row[u + 1]; k++) {
            int v = col[k];
            if (v != source && W::add(du, wt[k]) == dist[v]) parent[v] = u;
        }
    }
}

}  // namespace seeds
