// Shared device helpers for the Frontier kernels (bfs.cu, sssp.cu, mst.cu).
//
// Persistent kernels loop on the device with cooperative_groups::this_grid().sync() between phases, so a
// high-diameter graph pays a grid barrier (about 1-2 us) per level instead of a host round trip (about 15 us).
// Data that other blocks change while a persistent kernel runs is read with ld.cg (L2, never a stale L1 line).
//
// Contents: index helpers; WarpQueue (a queue append buffered per warp in shared memory); block_push (one append
// per block); advance (frontier expansion with a per-arc functor and a choice of load balancing, after Gunrock's
// advance operator: Wang, Davidson, Pan, Wu, Riffel, Owens, "Gunrock: A High-Performance Graph Processing Library
// on the GPU", PPoPP 2016), used by bfs.cu (top-down levels) and sssp.cu (near-queue expansion).
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
__device__ __forceinline__ long long ldcg(const long long* p) { return __ldcg(p); }

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

// Inclusive prefix sum over the block (every thread calls it; two block barriers).
__device__ __forceinline__ int block_scan(int x) {
    __shared__ int warpSums[WARPS_PER_BLOCK];
    int lane = lane_id(), w = threadIdx.x / WARP;
    for (int o = 1; o < WARP; o <<= 1) {
        int y = __shfl_up_sync(FULL_MASK, x, o);
        if (lane >= o) x += y;
    }
    if (lane == WARP - 1) warpSums[w] = x;
    __syncthreads();
    if (w == 0) {
        int t = lane < WARPS_PER_BLOCK ? warpSums[lane] : 0;
        for (int o = 1; o < WARPS_PER_BLOCK; o <<= 1) {
            int y = __shfl_up_sync(FULL_MASK, t, o);
            if (lane >= o) t += y;
        }
        if (lane < WARPS_PER_BLOCK) warpSums[lane] = t;
    }
    __syncthreads();
    return x + (w > 0 ? warpSums[w - 1] : 0);
}

// Exclusive prefix sum of x over the warp, and the warp's total (every lane calls it; sssp_multi.cu, sssp_batch.cu).
__device__ __forceinline__ int warp_exclusive(int x, int& total) {
    int incl = x;
    for (int o = 1; o < WARP; o <<= 1) {
        int t = __shfl_up_sync(FULL_MASK, incl, o);
        if (lane_id() >= o) incl += t;
    }
    total = __shfl_sync(FULL_MASK, incl, WARP - 1);
    return incl - x;
}

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

// ---- advance: expansion of a frontier queue ----------------------------------------------------------------------

// How advance spreads the arcs of the frontier's vertices over the grid. A vertex is "big" when it has at least
// BLOCK_EXPAND_DEGREE arcs; the big-vertex passes run only where the caller says the graph has any (hasBig).
enum class LoadBalance {
    WARP,        // one warp per frontier vertex, whatever its degree
    WARP_BLOCK,  // one warp per small vertex; then one block per big vertex (a second pass over the frontier)
    WARP_EDGE,   // one warp per small vertex; big vertices are listed (BigList) and, after a grid barrier, their
                 // arcs, concatenated, are split evenly over all warps in 32-arc chunks (edge-balanced, so a hub no
                 // longer sets the length of a step). Cooperative launches only (the barrier is a grid sync).
};

// Where WARP_EDGE lists the frontier's big vertices: vertex[i] and the offset of its first arc in the concatenation,
// offset[i] (of the arc offset type O: the concatenation may exceed 2^31 arcs on a graph with 64-bit offsets);
// *ctr = (big vertices << BIG_COUNT_SHIFT) | their arcs so far, zeroed by the caller before the advance (one 64-bit
// atomicAdd per big vertex makes the offsets ascend with list positions). vertex and offset hold as many entries as
// the graph has big vertices.
template <typename O>
struct BigListOf {
    int* vertex;
    O* offset;
    u64* ctr;
};
typedef BigListOf<int> BigList;
constexpr int BIG_COUNT_SHIFT = 40;
constexpr u64 BIG_ARCS_MASK = (1ull << BIG_COUNT_SHIFT) - 1;

// Arc offsets: every CSR kernel is a template on the type O of its row offsets and arc indices, compiled for int
// (the graphs of fewer than 2^31 arcs: the entry points' plain names) and for long long (graphs stored wide, more
// arcs than an int indexes: the same names with _o64). Degrees stay int (a row holds fewer than 2^31 arcs).
//
// Expands the count vertices of frontier[] (read with ld.cg: another block may have written it since the last
// grid barrier), calling the functor f once per arc slot. The functor provides
//   typedef ... Source;                 state of a frontier vertex loaded once per vertex (e.g. its distance)
//   Source source(int u);               loads it; may be called by any subset of lanes (no warp collectives)
//   void operator()(bool valid, int u, const Source& su, int v, O k);
// The call is made by every lane of the warp together (whole blocks in the block pass), also by lanes that hold
// no arc (valid == false: v == -1, and u, su, k are not to be used), so the functor may call warp collectives
// such as WarpQueue::push; for valid lanes k is the arc's index (col[k] == v, so wt[k] is its weight) and u its
// tail. Arc heads are read with __ldg (the CSR does not change during a launch). Big vertices are expanded after
// the small ones (under WARP_EDGE after all of them, grid-wide); the functor must not rely on any order of arcs.
// hasBig must be the same in every thread (under WARP_EDGE it decides whether the whole grid meets at a barrier);
// big is used by WARP_EDGE only. The functor's own per-warp state (its WarpQueues) is flushed by the caller.
template <LoadBalance LB, typename F, typename O>
__device__ __forceinline__ void advance(const O* __restrict__ row, const int* __restrict__ col,
                                        const int* frontier, int count, F& f, int hasBig = 0,
                                        BigListOf<O> big = BigListOf<O>{nullptr, nullptr, nullptr}) {
    const bool split = LB != LoadBalance::WARP && hasBig;  // big vertices get a pass of their own
    // small and medium vertices: one warp each (every lane runs the same trip count)
    for (long long i = global_warp(); i < count; i += grid_warps()) {
        int u = ldcg(&frontier[i]);
        O s = __ldg(&row[u]), e = __ldg(&row[u + 1]);
        if (split && e - s >= BLOCK_EXPAND_DEGREE) {
            if (LB == LoadBalance::WARP_EDGE && lane_id() == 0) {
                u64 old = atomicAdd(big.ctr, (1ull << BIG_COUNT_SHIFT) | (u64)(e - s));
                int idx = (int)(old >> BIG_COUNT_SHIFT);
                big.vertex[idx] = u;
                big.offset[idx] = (O)(old & BIG_ARCS_MASK);
            }
            continue;
        }
        typename F::Source su = f.source(u);
        for (O base = s; base < e; base += WARP) {
            O k = base + lane_id();
            int v = -1;
            bool valid = k < e;
            if (valid) v = __ldg(&col[k]);
            f(valid, u, su, v, k);
        }
    }
    if (!split) return;
    switch (LB) {  // a template constant: only the chosen pass is compiled into the kernel
    case LoadBalance::WARP:
        break;
    case LoadBalance::WARP_BLOCK:
        // big vertices: one block each (every thread of the block runs the same trip count)
        for (long long i = blockIdx.x; i < count; i += gridDim.x) {
            int u = ldcg(&frontier[i]);
            O s = __ldg(&row[u]), e = __ldg(&row[u + 1]);
            if (e - s < BLOCK_EXPAND_DEGREE) continue;
            typename F::Source su = f.source(u);
            for (O base = s; base < e; base += blockDim.x) {
                O k = base + threadIdx.x;
                int v = -1;
                bool valid = k < e;
                if (valid) v = __ldg(&col[k]);
                f(valid, u, su, v, k);
            }
        }
        break;
    case LoadBalance::WARP_EDGE: {
        // the arcs of all listed big vertices, concatenated, split evenly over the grid's warps in 32-arc chunks
        cg::this_grid().sync();
        u64 packed = ldcg(big.ctr);
        int nb = (int)(packed >> BIG_COUNT_SHIFT);
        long long total = (long long)(packed & BIG_ARCS_MASK);
        long long chunks = (total + WARP - 1) / WARP, warps = grid_warps(), w = global_warp();
        long long lo = w * chunks / warps * WARP, hi = (w + 1) * chunks / warps * WARP;
        if (hi > total) hi = total;
        if (lo < hi) {  // warp-uniform
            // the big vertex holding arc lo: the last idx with offset[idx] <= lo
            int a = 0, b = nb - 1;
            while (a < b) {
                int mid = (a + b + 1) >> 1;
                if (ldcg(&big.offset[mid]) <= lo) a = mid;
                else b = mid - 1;
            }
            int idx = a;
            long long start = ldcg(&big.offset[idx]);
            long long end = idx + 1 < nb ? ldcg(&big.offset[idx + 1]) : total;
            int u = ldcg(&big.vertex[idx]);
            O s = __ldg(&row[u]);
            typename F::Source su = f.source(u);
            for (long long base = lo; base < hi; base += WARP) {
                long long p = base + lane_id();
                int v = -1;
                O k = -1;
                bool valid = p < hi;
                if (valid) {
                    while (p >= end) {  // at most once per step: big vertices have more than 32 arcs
                        idx++;
                        start = end;
                        end = idx + 1 < nb ? ldcg(&big.offset[idx + 1]) : total;
                        u = ldcg(&big.vertex[idx]);
                        s = __ldg(&row[u]);
                        su = f.source(u);
                    }
                    k = s + (O)(p - start);
                    v = __ldg(&col[k]);
                }
                f(valid, u, su, v, k);
            }
        }
        break;
    }
    }
}

}  // namespace frontier
