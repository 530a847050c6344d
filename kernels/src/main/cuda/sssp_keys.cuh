// SSSP distance keys, shared by sssp.cu (near-far), sssp_async.cu (asynchronous buckets), sssp_multi.cu (several
// sources a launch) and sssp_repair.cu (standing trees): a distance is a u64 key, the integer itself for integer
// weights or the bits of a non-negative double, so keys order as distances and one atomicMin keeps the smallest; INF
// is an unreached vertex. add() forms the key of d + w exactly as the host's Dijkstra forms the double sum, which
// makes every implementation's distances the same numbers.
#pragma once
#include "frontier.cuh"

namespace frontier {

struct IntWeights {
    typedef int type;
    static constexpr u64 INF = U64_MAX;
    static constexpr bool EXACT_SHIFT = true;   // a path's key less a prefix's is its suffix's (sssp_repair.cu's shift)
    __device__ static __forceinline__ u64 add(u64 d, int w) { return d + (u64)w; }
    __device__ static __forceinline__ u64 plus_delta(u64 t, u64 delta) { return t + delta; }
};

struct DoubleWeights {
    typedef double type;
    static constexpr u64 INF = 0x7FF0000000000000ull;  // +infinity
    static constexpr bool EXACT_SHIFT = false;  // rounded sums: old - old + new need not be the sum along the path
    __device__ static __forceinline__ u64 add(u64 d, double w) {
        return (u64)__double_as_longlong(__longlong_as_double((long long)d) + w);
    }
    __device__ static __forceinline__ u64 plus_delta(u64 t, u64 delta) {
        double r = __longlong_as_double((long long)t) + __longlong_as_double((long long)delta);
        return (u64)__double_as_longlong(r);
    }
};

// Every arc counts 1 (BFS hops as keys, for the standing-tree repair of sssp_repair.cu): the weight is not used.
struct UnitWeights {
    typedef int type;
    static constexpr u64 INF = U64_MAX;
    static constexpr bool EXACT_SHIFT = true;
    __device__ static __forceinline__ u64 add(u64 d, int) { return d + 1; }
    __device__ static __forceinline__ u64 plus_delta(u64 t, u64 delta) { return t + delta; }
};

// The SUMMARY of the keys keys[v], v = first, first + stride, ... < n (issue 10: a few bytes copied back instead of
// the array): out[0] += the keys below inf (reached vertices), out[1] = max(out[1], the largest of them). Keys order
// as their distances (integers, or the bits of non-negative doubles), so one u64 max serves both weight types.
// Called by whole warps (one atomic pair per warp); out[] is zeroed by the host.
__device__ __forceinline__ void summarize_keys(const u64* __restrict__ keys, long long n, long long first,
                                               long long stride, u64 inf, u64* out) {
    u64 reached = 0, best = 0;
    for (long long v = first; v < n; v += stride) {
        u64 k = keys[v];
        if (k < inf) {   // unsigned: inf and anything above it (never written) are unreached
            reached++;
            best = max(best, k);
        }
    }
    for (int o = WARP / 2; o > 0; o >>= 1) {
        reached += __shfl_down_sync(FULL_MASK, reached, o);
        best = max(best, __shfl_down_sync(FULL_MASK, best, o));
    }
    if (lane_id() == 0 && reached > 0) {
        atomicAdd(&out[0], reached);
        atomicMax(&out[1], best);
    }
}

}  // namespace frontier
