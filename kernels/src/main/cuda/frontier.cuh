// Shared device helpers for the Frontier kernels (bfs.cu, sssp.cu, mst.cu).
//
// Persistent kernels loop on the device with cooperative_groups::this_grid().sync() between phases, so a
// high-diameter graph pays a grid barrier (about 1-2 us) per level instead of a host round trip (about 15 us).
// Data that other blocks change while a persistent kernel runs is read with ld.cg (L2, never a stale L1 line).
#pragma once
#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

typedef unsigned long long u64;

namespace frontier {

constexpr int WARP = 32;
// A frontier vertex with at least this many arcs is expanded by a whole block instead of one warp.
constexpr int BLOCK_EXPAND_DEGREE = 1024;
constexpr u64 U64_MAX = ~0ull;

__device__ __forceinline__ int ldcg(const int* p) { return __ldcg(p); }
__device__ __forceinline__ u64 ldcg(const u64* p) { return __ldcg(reinterpret_cast<const unsigned long long*>(p)); }

__device__ __forceinline__ int lane_id() { return threadIdx.x & (WARP - 1); }
__device__ __forceinline__ unsigned lanes_below() { return (1u << lane_id()) - 1u; }

__device__ __forceinline__ long long global_thread() {
    return (long long)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ long long grid_threads() { return (long long)gridDim.x * blockDim.x; }
__device__ __forceinline__ long long global_warp() { return global_thread() / WARP; }
__device__ __forceinline__ long long grid_warps() { return grid_threads() / WARP; }

// Appends v to queue[] for every lane with take == true, one atomicAdd per warp. Every active lane must call it.
// Returns nothing; *count grows by the number of takers. extra (per taker) is summed into *extraSum when non-null.
__device__ __forceinline__ void warp_push(bool take, int v, int* queue, u64* count,
                                          unsigned extra = 0, u64* extraSum = nullptr) {
    unsigned active = __activemask();
    unsigned takers = __ballot_sync(active, take);
    if (takers == 0) return;
    int leader = __ffs(takers) - 1;
    u64 base = 0;
    if (extraSum != nullptr) {
        unsigned total = __reduce_add_sync(active, take ? extra : 0u);
        if (lane_id() == leader) atomicAdd(extraSum, (u64)total);
    }
    if (lane_id() == leader) base = atomicAdd(count, (u64)__popc(takers));
    base = __shfl_sync(active, base, leader);
    if (take) queue[base + __popc(takers & lanes_below())] = v;
}

}  // namespace frontier
