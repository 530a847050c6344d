// Breadth-first search: direction-optimizing BFS (Beamer, Asanovic, Patterson, "Direction-Optimizing
// Breadth-First Search", SC 2012) on a CSR graph.
//
// Top-down levels expand a queue of frontier vertices with frontier.cuh's advance (LoadBalance::WARP_BLOCK): one
// warp per vertex, one block per vertex of degree >= BLOCK_EXPAND_DEGREE (that pass is skipped where the graph has
// none: hasBig); the functor Discover claims a neighbour with atomicCAS on hops[] and appends it to the next queue
// through a per-warp shared-memory buffer. Bottom-up levels (undirected graphs only: in-neighbours are
// out-neighbours) let each unvisited vertex look for a parent in the frontier and stop at the first one. The
// switch follows Beamer's rule: bottom-up when the frontier's arcs exceed the unexplored arcs / ALPHA, back to
// top-down when the frontier holds fewer than n / BETA vertices.
//
// bfs_persistent runs every level in one cooperative launch (grid barrier per level, no host round trip);
// bfs_level runs one level per launch for the host-driven variant, which the benchmark compares.
//
// Counters (u64 ctr[], slots named by BfsCounter below): ctr[BFS_NEXT_COUNT + s] next-frontier size and
// ctr[BFS_NEXT_ARCS + s] its arc count, for s = level % 3; a slot is zeroed one level before it is written again, so
// a level needs a single grid barrier. ctr[BFS_LEVELS] = levels run (bfs_persistent).
#include "frontier.cuh"

// Counter slots (u64 ctr[]), mirrored by BfsCounters on the host
enum BfsCounter : int {
    BFS_NEXT_COUNT = 0,   // 3 slots, level % 3: size of the frontier the level builds
    BFS_NEXT_ARCS = 3,    // 3 slots, level % 3: arcs of the frontier the level builds
    BFS_LEVELS = 6,       // levels run (bfs_persistent)
    BFS_COUNTERS = 16     // size of the array the host allocates
};

using namespace frontier;

namespace {

constexpr u64 ALPHA = 15;
constexpr u64 BETA = 18;

// Top-down visit of arc (u, v): claims an unvisited head with atomicCAS on hops[] and appends it to the next queue
// with its degree (summed into the next frontier's arc count). The head's row is loaded before the claim's answer
// is waited for (speculatively: wasted when the claim fails), so a level's chain of dependent round trips is one
// shorter. With check, hops[v] is read first and a visited head is not claimed at all: fewer atomics on dense graphs
// (most heads are visited), one more round trip a level on sparse ones (check = 0 there by default).
struct Discover {
    struct Source {};  // nothing per tail beyond u itself
    const int* __restrict__ row;
    int* hops;
    int* parent;
    int level;
    int check;
    WarpQueue queue;

    __device__ __forceinline__ Source source(int) const { return Source{}; }

    __device__ __forceinline__ void operator()(bool valid, int u, const Source&, int v, int) {
        bool take = false;
        unsigned deg = 0;
        if (valid && (!check || ldcg(&hops[v]) == -1)) {
            int rs = __ldg(&row[v]), re = __ldg(&row[v + 1]);
            if (atomicCAS(&hops[v], -1, level + 1) == -1) {
                take = true;
                parent[v] = u;
                deg = (unsigned)(re - rs);
            }
        }
        queue.push(take, v, deg);
    }
};

__device__ __forceinline__ void top_down(const int* __restrict__ row, const int* __restrict__ col,
                                         int* hops, int* parent, const int* cur, int cnt, int* next,
                                         u64* nextCount, u64* nextArcs, int level, int hasBig, int check) {
    __shared__ int buffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    Discover visit{row, hops, parent, level, check, WarpQueue(buffer, next, nextCount, nextArcs)};
    advance<LoadBalance::WARP_BLOCK>(row, col, cur, cnt, visit, hasBig);
    visit.queue.finish();
}

__device__ __forceinline__ void bottom_up(const int* __restrict__ row, const int* __restrict__ col, int n,
                                          int* hops, int* parent, int* next, u64* nextCount, u64* nextArcs,
                                          int level) {
    __shared__ int buffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    WarpQueue queue(buffer, next, nextCount, nextArcs);
    long long stride = grid_threads();
    long long limit = ((long long)n + stride - 1) / stride * stride;  // whole warps stay in the loop together
    for (long long v = global_thread(); v < limit; v += stride) {
        bool take = false;
        unsigned deg = 0;
        if (v < n && ldcg(&hops[v]) == -1) {
            int s = __ldg(&row[v]), e = __ldg(&row[v + 1]);
            for (int k = s; k < e; k++) {
                int u = __ldg(&col[k]);
                if (u == (int)v) break;   // a pad (slack form: self-loops after the live arcs; no live arc is one)
                if (ldcg(&hops[u]) == level) {
                    hops[v] = level + 1;
                    parent[v] = u;
                    take = true;
                    deg = (unsigned)(e - s);
                    break;
                }
            }
        }
        queue.push(take, (int)v, deg);
    }
    queue.finish();
}

__device__ __forceinline__ void init(const int* __restrict__ row, int n, int* hops, int* parent, int* queue,
                                     u64* ctr, int source) {
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        hops[v] = v == source ? 0 : -1;
        parent[v] = v == source ? source : -1;
    }
    if (global_thread() == 0) {
        queue[0] = source;
        for (int i = 0; i < BFS_COUNTERS; i++) ctr[i] = 0;
    }
}

}  // namespace

// Clears hops/parents and seeds the queue with the source (used by the host-driven variant).
extern "C" __global__ void bfs_init(const int* __restrict__ row, int n, int* hops, int* parent, int* queue,
                                    u64* ctr, int source) {
    init(row, n, hops, parent, queue, ctr, source);
}

// One level, for the host-driven variant. The host zeroes the counter slot beforehand and reads it after.
extern "C" __global__ void bfs_level(const int* __restrict__ row, const int* __restrict__ col, int n, int* hops,
                                     int* parent, const int* cur, int cnt, int* next, u64* ctr, int level,
                                     int bottomUp, int hasBig, int check) {
    int s = level % 3;
    u64* nextCount = &ctr[BFS_NEXT_COUNT + s];
    u64* nextArcs = &ctr[BFS_NEXT_ARCS + s];
    if (bottomUp) bottom_up(row, col, n, hops, parent, next, nextCount, nextArcs, level);
    else top_down(row, col, hops, parent, cur, cnt, next, nextCount, nextArcs, level, hasBig, check);
}

// The whole search in one cooperative launch.
extern "C" __global__ void bfs_persistent(const int* __restrict__ row, const int* __restrict__ col, int n,
                                          long long arcs, int* hops, int* parent, int* queueA, int* queueB,
                                          u64* ctr, int source, int allowBottomUp, int hasBig, int check) {
    cg::grid_group grid = cg::this_grid();
    init(row, n, hops, parent, queueA, ctr, source);
    grid.sync();

    int* cur = queueA;
    int* next = queueB;
    u64 count = 1;
    u64 frontierArcs = (u64)(__ldg(&row[source + 1]) - __ldg(&row[source]));
    u64 explored = frontierArcs;
    bool bottomUp = false;
    int level = 0;
    while (count > 0) {
        int s = level % 3;
        if (global_thread() == 0) {
            int z = (level + 1) % 3;
            ctr[BFS_NEXT_COUNT + z] = 0;
            ctr[BFS_NEXT_ARCS + z] = 0;
        }
        if (allowBottomUp) {
            u64 unexplored = (u64)arcs > explored ? (u64)arcs - explored : 0;
            if (!bottomUp && frontierArcs * ALPHA > unexplored) bottomUp = true;
            else if (bottomUp && count * BETA < (u64)n) bottomUp = false;
        }
        u64* nextCount = &ctr[BFS_NEXT_COUNT + s];
        u64* nextArcs = &ctr[BFS_NEXT_ARCS + s];
        if (bottomUp) bottom_up(row, col, n, hops, parent, next, nextCount, nextArcs, level);
        else top_down(row, col, hops, parent, cur, (int)count, next, nextCount, nextArcs, level, hasBig, check);
        grid.sync();
        count = ldcg(&ctr[BFS_NEXT_COUNT + s]);
        frontierArcs = ldcg(&ctr[BFS_NEXT_ARCS + s]);
        explored += frontierArcs;
        int* t = cur;
        cur = next;
        next = t;
        level++;
    }
    if (global_thread() == 0) ctr[BFS_LEVELS] = (u64)level;
}

// The SUMMARY of the search left in hops[] (issue 10: a few bytes copied back instead of the array):
// out[0] += vertices with hops >= 0, out[1] = max(out[1], largest hop count). out[] is zeroed by the host.
extern "C" __global__ void bfs_summary(const int* __restrict__ hops, int n, u64* out) {
    u64 reached = 0;
    unsigned best = 0;
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        int h = hops[v];
        if (h >= 0) {
            reached++;
            best = max(best, (unsigned)h);
        }
    }
    for (int o = WARP / 2; o > 0; o >>= 1) {
        reached += __shfl_down_sync(FULL_MASK, reached, o);
        best = max(best, __shfl_down_sync(FULL_MASK, best, o));
    }
    if (lane_id() == 0 && reached > 0) {
        atomicAdd(&out[0], reached);
        atomicMax(&out[1], (u64)best);
    }
}
