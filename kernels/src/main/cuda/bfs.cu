// Breadth-first search: direction-optimizing BFS (Beamer, Asanovic, Patterson, "Direction-Optimizing
// Breadth-First Search", SC 2012) on a CSR graph.
//
// Top-down levels expand a queue of frontier vertices: one warp per vertex, one block per vertex of degree
// >= BLOCK_EXPAND_DEGREE (that pass is skipped where the graph has none: hasBig); a neighbour is claimed with
// atomicCAS on hops[] and appended to the next queue through a per-warp shared-memory buffer. Bottom-up levels (undirected graphs only: in-neighbours are out-neighbours) let each
// unvisited vertex look for a parent in the frontier and stop at the first one. The switch follows Beamer's
// rule: bottom-up when the frontier's arcs exceed the unexplored arcs / ALPHA, back to top-down when the
// frontier holds fewer than n / BETA vertices.
//
// bfs_persistent runs every level in one cooperative launch (grid barrier per level, no host round trip);
// bfs_level runs one level per launch for the host-driven variant, which the benchmark compares.
//
// Counters (u64 ctr[]): ctr[s] next-frontier size and ctr[3 + s] its arc count, for s = level % 3; a slot is
// zeroed one level before it is written again, so a level needs a single grid barrier. ctr[6] = levels run.
#include "frontier.cuh"

using namespace frontier;

namespace {

constexpr u64 ALPHA = 15;
constexpr u64 BETA = 18;

__device__ __forceinline__ void top_down(const int* __restrict__ row, const int* __restrict__ col,
                                         int* hops, int* parent, const int* cur, int cnt, int* next,
                                         u64* nextCount, u64* nextArcs, int level, int hasBig) {
    __shared__ int buffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    WarpQueue queue(buffer, next, nextCount, nextArcs);
    // vertices of small and medium degree: one warp each (every lane runs the same trip count)
    for (long long i = global_warp(); i < cnt; i += grid_warps()) {
        int u = ldcg(&cur[i]);
        int s = __ldg(&row[u]), e = __ldg(&row[u + 1]);
        if (hasBig && e - s >= BLOCK_EXPAND_DEGREE) continue;
        for (int base = s; base < e; base += WARP) {
            int k = base + lane_id();
            int v = -1;
            bool take = false;
            unsigned deg = 0;
            if (k < e) {
                v = __ldg(&col[k]);
                take = ldcg(&hops[v]) == -1 && atomicCAS(&hops[v], -1, level + 1) == -1;
                if (take) {
                    parent[v] = u;
                    deg = (unsigned)(__ldg(&row[v + 1]) - __ldg(&row[v]));
                }
            }
            queue.push(take, v, deg);
        }
    }
    // vertices of high degree (only where the graph has any): one block each
    if (hasBig) {
        for (long long i = blockIdx.x; i < cnt; i += gridDim.x) {
            int u = ldcg(&cur[i]);
            int s = __ldg(&row[u]), e = __ldg(&row[u + 1]);
            if (e - s < BLOCK_EXPAND_DEGREE) continue;
            for (int base = s; base < e; base += blockDim.x) {
                int k = base + threadIdx.x;
                int v = -1;
                bool take = false;
                unsigned deg = 0;
                if (k < e) {
                    v = __ldg(&col[k]);
                    take = ldcg(&hops[v]) == -1 && atomicCAS(&hops[v], -1, level + 1) == -1;
                    if (take) {
                        parent[v] = u;
                        deg = (unsigned)(__ldg(&row[v + 1]) - __ldg(&row[v]));
                    }
                }
                queue.push(take, v, deg);
            }
        }
    }
    queue.finish();
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
        for (int i = 0; i < 8; i++) ctr[i] = 0;
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
                                     int bottomUp, int hasBig) {
    int s = level % 3;
    if (bottomUp) bottom_up(row, col, n, hops, parent, next, &ctr[s], &ctr[3 + s], level);
    else top_down(row, col, hops, parent, cur, cnt, next, &ctr[s], &ctr[3 + s], level, hasBig);
}

// The whole search in one cooperative launch.
extern "C" __global__ void bfs_persistent(const int* __restrict__ row, const int* __restrict__ col, int n,
                                          long long arcs, int* hops, int* parent, int* queueA, int* queueB,
                                          u64* ctr, int source, int allowBottomUp, int hasBig) {
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
            ctr[z] = 0;
            ctr[3 + z] = 0;
        }
        if (allowBottomUp) {
            u64 unexplored = (u64)arcs > explored ? (u64)arcs - explored : 0;
            if (!bottomUp && frontierArcs * ALPHA > unexplored) bottomUp = true;
            else if (bottomUp && count * BETA < (u64)n) bottomUp = false;
        }
        if (bottomUp) bottom_up(row, col, n, hops, parent, next, &ctr[s], &ctr[3 + s], level);
        else top_down(row, col, hops, parent, cur, (int)count, next, &ctr[s], &ctr[3 + s], level, hasBig);
        grid.sync();
        count = ldcg(&ctr[s]);
        frontierArcs = ldcg(&ctr[3 + s]);
        explored += frontierArcs;
        int* t = cur;
        cur = next;
        next = t;
        level++;
    }
    if (global_thread() == 0) ctr[6] = (u64)level;
}
