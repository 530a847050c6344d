// SSSP distance keys, shared by sssp.cu (near-far), sssp_async.cu (asynchronous buckets) and sssp_multi.cu (several
// sources a launch): a distance is a u64 key, the integer itself for integer weights or the bits of a non-negative
// double, so keys order as distances and one atomicMin keeps the smallest; INF is an unreached vertex. add() forms
// the key of d + w exactly as the host's Dijkstra forms the double sum, which makes every implementation's
// distances the same numbers.
#pragma once
#include "frontier.cuh"

namespace frontier {

struct IntWeights {
    typedef int type;
    static constexpr u64 INF = U64_MAX;
    __device__ static __forceinline__ u64 add(u64 d, int w) { return d + (u64)w; }
    __device__ static __forceinline__ u64 plus_delta(u64 t, u64 delta) { return t + delta; }
};

struct DoubleWeights {
    typedef double type;
    static constexpr u64 INF = 0x7FF0000000000000ull;  // +infinity
    __device__ static __forceinline__ u64 add(u64 d, double w) {
        return (u64)__double_as_longlong(__longlong_as_double((long long)d) + w);
    }
    __device__ static __forceinline__ u64 plus_delta(u64 t, u64 delta) {
        double r = __longlong_as_double((long long)t) + __longlong_as_double((long long)delta);
        return (u64)__double_as_longlong(r);
    }
};

}  // namespace frontier
