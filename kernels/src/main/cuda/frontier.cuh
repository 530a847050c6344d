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
// A frontier vertex with at least this many arcs is expanded by a whole block instead of one warp
// (DeviceCsr.BLOCK_EXPAND_DEGREE on the host must match).
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

constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr int BLOCK_THREADS = 256;
constexpr int WARPS_PER_BLOCK = BLOCK_THREADS / WARP;
// Entries a warp gathers in shared memory before it reserves space in the global queue with one atomicAdd.
constexpr int WARP_QUEUE_CAPACITY = 128;

// A queue append buffered per warp: the warp collects vertices in shared memory and reserves room in the global
// queue once per WARP_QUEUE_CAPACITY entries, instead of once per ballot, so the queue's single counter is not a
// hot spot. All 32 lanes must call push and finish together (loops that call them run the same trip count on every
// lane). extra (per taker) is summed into *extraSum at finish when extraSum is non-null.
struct WarpQueue {
    int* buffer;   // this warp's WARP_QUEUE_CAPACITY slots of shared memory
    int fill;      // warp-uniform
    unsigned extra;
    int* out;
    u64* count;
    u64* extraSum;

    __device__ __forceinline__ WarpQueue(int (*shared)[WARP_QUEUE_CAPACITY], int* out_, u64* count_,
                                         u64* extraSum_ = nullptr)
        : buffer(shared[threadIdx.x / WARP]), fill(0), extra(0), out(out_), count(count_), extraSum(extraSum_) {}

    __device__ __forceinline__ void flush() {
        __syncwarp();
        if (fill == 0) return;
        u64 base = 0;
        if (lane_id() == 0) base = atomicAdd(count, (u64)fill);
        base = __shfl_sync(FULL_MASK, base, 0);
        for (int i = lane_id(); i < fill; i += WARP) out[base + i] = buffer[i];
        fill = 0;
        __syncwarp();
    }

    __device__ __forceinline__ void push(bool take, int v, unsigned x = 0) {
        unsigned takers = __ballot_sync(FULL_MASK, take);
        if (takers == 0) return;
        int n = __popc(takers);
        if (fill + n > WARP_QUEUE_CAPACITY) flush();
        if (take) {
            buffer[fill + __popc(takers & lanes_below())] = v;
            extra += x;
        }
        fill += n;
    }

    __device__ __forceinline__ void finish() {
        flush();
        if (extraSum != nullptr) {
            unsigned total = __reduce_add_sync(FULL_MASK, extra);
            if (lane_id() == 0 && total != 0) atomicAdd(extraSum, (u64)total);
        }
        extra = 0;
    }
};

// Appends item to out[] for every thread with keep == true, one atomicAdd per block. Every thread of the block
// must call it together.
template <typename T>
__device__ __forceinline__ void block_push(bool keep, const T& item, T* out, u64* count) {
    __shared__ int warpOffset[WARPS_PER_BLOCK];
    __shared__ u64 blockBase;
    unsigned takers = __ballot_sync(FULL_MASK, keep);
    int w = threadIdx.x / WARP;
    if (lane_id() == 0) warpOffset[w] = __popc(takers);
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int i = 0; i < WARPS_PER_BLOCK; i++) {
            int t = warpOffset[i];
            warpOffset[i] = sum;
            sum += t;
        }
        blockBase = sum > 0 ? atomicAdd(count, (u64)sum) : 0;
    }
    __syncthreads();
    if (keep) out[blockBase + warpOffset[w] + __popc(takers & lanes_below())] = item;
    __syncthreads();
}

}  // namespace frontier
