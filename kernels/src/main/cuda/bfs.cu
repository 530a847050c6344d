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
// bfs_level runs one level per launch for the host-driven variant, which the benchmark compares. Both are templates on
// the row offsets' type (frontier.cuh): the plain names for int offsets, _o64 for a graph stored wide (long long).
//
// Work in proportion to what is reached (issue 31): the frontiers are appended, level after level, to one array
// order[] (a vertex is queued once, so it holds at most n), and the search leaves how many it holds in
// ctr[BFS_REACHED]. The next search starts by clearing the hops and parents of exactly those vertices, so between
// searches hops[]/parents[] hold the last answer and -1 elsewhere, and no search touches what it does not reach; a
// fresh launcher (uninitialised memory) clears all n once. A frontier of at most SMALL_VERTICES vertices and
// `small` arcs is expanded by block 0 alone, level after level, with the frontier in shared memory and a block
// barrier per level, while the other blocks wait at one grid barrier (a tiny or chain-like reach pays about one
// grid barrier in all instead of one a level); when it grows past that, block 0 hands the state over in ctr[] and
// the grid takes the level loop back.
//
// Counters (u64 ctr[], slots named by BfsCounter below): ctr[BFS_NEXT_COUNT + s] next-frontier size and
// ctr[BFS_NEXT_ARCS + s] its arc count, for s = (level + rotation) % 3; a slot is zeroed one level before it is
// written again, so a level needs a single grid barrier (a hand-over from block 0 picks the rotation so that
// neither the next slot nor the one after is the slot that late blocks may still be reading). ctr[BFS_LEVELS] =
// levels run, ctr[BFS_REACHED] = vertices reached (both variants); ctr[BFS_AT_*]: block 0's hand-over.
#include "frontier.cuh"

// Counter slots (u64 ctr[]), mirrored by BfsCounters on the host
enum BfsCounter : int {
    BFS_NEXT_COUNT = 0,   // 3 slots, level % 3: size of the frontier the level builds
    BFS_NEXT_ARCS = 3,    // 3 slots, level % 3: arcs of the frontier the level builds
    BFS_LEVELS = 6,       // levels run
    BFS_REACHED = 7,      // vertices reached, = the length of order[]; kept until the next search clears them
    BFS_AT_LEVEL = 8,     // block 0's hand-over (bfs_persistent): the level the grid resumes at,
    BFS_AT_OFFSET = 9,    //   where its frontier starts in order[],
    BFS_AT_COUNT = 10,    //   its size,
    BFS_AT_ARCS = 11,     //   its arcs,
    BFS_AT_EXPLORED = 12, //   the arcs of every frontier so far,
    BFS_AT_ROTATION = 13, //   and the counter slots' rotation
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
template <typename O>
struct Discover {
    struct Source {};  // nothing per tail beyond u itself
    const O* __restrict__ row;
    int* hops;
    int* parent;
    int level;
    int check;
    WarpQueue queue;

    __device__ __forceinline__ Source source(int) const { return Source{}; }

    __device__ __forceinline__ void operator()(bool valid, int u, const Source&, int v, O) {
        bool take = false;
        unsigned deg = 0;
        if (valid && (!check || ldcg(&hops[v]) == -1)) {
            O rs = __ldg(&row[v]), re = __ldg(&row[v + 1]);
            if (atomicCAS(&hops[v], -1, level + 1) == -1) {
                take = true;
                parent[v] = u;
                deg = (unsigned)(re - rs);
            }
        }
        queue.push(take, v, deg);
    }
};

// The block's shared memory, one array for every phase (a warp queue's buffers, or block 0's small frontiers), so
// the persistent kernel needs no more than its two queue buffers did: SCRATCH ints (int offsets; block 0's
// frontiers hold 64-bit row starts with long long offsets: Scratch<O>::INTS, aligned for them).
constexpr int SCRATCH = 2 * WARPS_PER_BLOCK * WARP_QUEUE_CAPACITY;
typedef int (*QueueBuffer)[WARP_QUEUE_CAPACITY];

template <typename O>
__device__ __forceinline__ void top_down(const O* __restrict__ row, const int* __restrict__ col,
                                         int* hops, int* parent, const int* cur, int cnt, int* next,
                                         u64* nextCount, u64* nextArcs, int level, int hasBig, int check,
                                         QueueBuffer buffer) {
    Discover<O> visit{row, hops, parent, level, check, WarpQueue(buffer, next, nextCount, nextArcs)};
    advance<LoadBalance::WARP_BLOCK>(row, col, cur, cnt, visit, hasBig);
    visit.queue.finish();
}

template <typename O>
__device__ __forceinline__ void bottom_up(const O* __restrict__ row, const int* __restrict__ col, int n,
                                          int* hops, int* parent, int* next, u64* nextCount, u64* nextArcs,
                                          int level, QueueBuffer buffer) {
    WarpQueue queue(buffer, next, nextCount, nextArcs);
    long long stride = grid_threads();
    long long limit = ((long long)n + stride - 1) / stride * stride;  // whole warps stay in the loop together
    for (long long v = global_thread(); v < limit; v += stride) {
        bool take = false;
        unsigned deg = 0;
        if (v < n && ldcg(&hops[v]) == -1) {
            O s = __ldg(&row[v]), e = __ldg(&row[v + 1]);
            for (O k = s; k < e; k++) {
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

// Clears what the last search reached (its order[0..ctr[BFS_REACHED]); all n when fresh) and seeds the source.
// Thread 0 alone reads order[0] (the last source) before it writes the new source there; a vertex appears once in
// order[], and the source is written the same (0, itself) by whichever threads touch it. ctr[BFS_REACHED] is read
// here and written only after the search (past a grid barrier or in a later launch).
__device__ __forceinline__ void init(int n, int* hops, int* parent, int* order, u64* ctr, int source, int fresh) {
    long long stride = grid_threads();
    if (fresh) {
        for (long long v = global_thread(); v < n; v += stride) {
            hops[v] = v == source ? 0 : -1;
            parent[v] = v == source ? source : -1;
        }
    } else {
        long long last = (long long)ldcg(&ctr[BFS_REACHED]);
        for (long long i = global_thread() + 1; i < last; i += stride) {
            int v = order[i];
            hops[v] = v == source ? 0 : -1;
            parent[v] = v == source ? source : -1;
        }
        if (global_thread() == 0 && last > 0) {
            int v = order[0];
            hops[v] = -1;
            parent[v] = -1;
        }
    }
    if (global_thread() == 0) {
        hops[source] = 0;
        parent[source] = source;
        order[0] = source;
        for (int i = 0; i < BFS_LEVELS; i++) ctr[i] = 0;
    }
}

// Frontiers block 0 expands alone (see the top of the file): at most this many vertices (one a thread) ...
constexpr int SMALL_VERTICES = BLOCK_THREADS;

// Block 0's frontiers in the scratch array, in ints: vertex[2][SMALL_VERTICES] at 0, first[2][..] (row starts, of
// type O) at FIRST, degree[2][..] at DEGREE, before[..] at BEFORE; INTS in all (at least the queue buffers' SCRATCH).
template <typename O>
struct Scratch {
    static constexpr int FIRST = 2 * SMALL_VERTICES;
    static constexpr int DEGREE = FIRST + 2 * SMALL_VERTICES * (int)(sizeof(O) / sizeof(int));
    static constexpr int BEFORE = DEGREE + 2 * SMALL_VERTICES;
    static constexpr int USED = BEFORE + SMALL_VERTICES;
    static constexpr int INTS = USED > SCRATCH ? USED : SCRATCH;
};

// Block 0's levels: the frontier order[offset..offset+count) (count <= SMALL_VERTICES, arcs <= small) is expanded
// by the whole block, one thread an arc over the frontier's arcs laid end to end (the owner found by binary search
// of the degrees' prefix sums in shared memory), claims as in Discover, the next frontier appended to order[] and
// kept in shared memory with its rows. Stops when the frontier is empty or outgrows the limits, and leaves the
// hand-over in ctr[BFS_AT_*] (thread 0; the caller's grid barrier publishes it). rotation: the slots' rotation the
// grid used; the hand-over's makes slot (level + rotation) % 3 and the one after differ from the slot late blocks
// may still read (the one of the level before this call).
template <typename O>
__device__ void small_levels(const O* __restrict__ row, const int* __restrict__ col, int* hops, int* parent,
                             int* order, u64* ctr, long long offset, int count, u64 arcs, u64 explored, int level,
                             int rotation, u64 small, int* scratch) {
    // in scratch (Scratch<O>): vertex[2][SMALL_VERTICES], first[2][..], degree[2][..], before[..] (exclusive prefix
    // sums of the current frontier's degrees)
    int (*vertex)[SMALL_VERTICES] = reinterpret_cast<int (*)[SMALL_VERTICES]>(scratch);
    O (*first)[SMALL_VERTICES] = reinterpret_cast<O (*)[SMALL_VERTICES]>(scratch + Scratch<O>::FIRST);
    int (*degree)[SMALL_VERTICES] = reinterpret_cast<int (*)[SMALL_VERTICES]>(scratch + Scratch<O>::DEGREE);
    int* before = scratch + Scratch<O>::BEFORE;
    __shared__ int nextCount;
    __shared__ unsigned long long nextArcs;
    int busy = (level + rotation + 2) % 3;   // the slot of the level before this call
    int t = threadIdx.x, c = 0;
    if (t < count) {
        int u = ldcg(&order[offset + t]);
        O s = __ldg(&row[u]);
        vertex[0][t] = u;
        first[0][t] = s;
        degree[0][t] = __ldg(&row[u + 1]) - s;
    }
    __syncthreads();
    while (true) {
        int d = t < count ? degree[c][t] : 0;
        int upTo = block_scan(d);
        if (t < count) before[t] = upTo - d;
        if (t == 0) {
            nextCount = 0;
            nextArcs = 0;
        }
        __syncthreads();
        int nx = c ^ 1, total = (int)arcs;
        for (int a = t; a < total; a += blockDim.x) {
            int lo = 0, hi = count - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >> 1;
                if (before[mid] <= a) lo = mid;
                else hi = mid - 1;
            }
            int u = vertex[c][lo];
            int v = __ldg(&col[first[c][lo] + (a - before[lo])]);
            O rs = __ldg(&row[v]), re = __ldg(&row[v + 1]);
            if (atomicCAS(&hops[v], -1, level + 1) == -1) {
                parent[v] = u;
                int p = atomicAdd(&nextCount, 1);
                atomicAdd(&nextArcs, (unsigned long long)(re - rs));
                order[offset + count + p] = v;
                if (p < SMALL_VERTICES) {
                    vertex[nx][p] = v;
                    first[nx][p] = rs;
                    degree[nx][p] = (int)(re - rs);
                }
            }
        }
        __syncthreads();
        offset += count;
        count = nextCount;
        arcs = nextArcs;
        explored += arcs;
        level++;
        c = nx;
        if (count == 0 || count > SMALL_VERTICES || arcs > small) break;
    }
    if (t == 0) {
        int r = ((busy + 1) % 3 - level % 3 + 3) % 3;   // (level + r) % 3 == busy + 1
        ctr[BFS_NEXT_COUNT + (busy + 1) % 3] = 0;        // the resumed level's slots; the one after is zeroed by it
        ctr[BFS_NEXT_ARCS + (busy + 1) % 3] = 0;
        ctr[BFS_AT_LEVEL] = (u64)level;
        ctr[BFS_AT_OFFSET] = (u64)offset;
        ctr[BFS_AT_COUNT] = (u64)count;
        ctr[BFS_AT_ARCS] = arcs;
        ctr[BFS_AT_EXPLORED] = explored;
        ctr[BFS_AT_ROTATION] = (u64)r;
    }
}

// One level, for the host-driven variant: expands order[offset..offset+cnt) and appends the next frontier after it.
// The host zeroes the counter slot beforehand and reads it after, and writes ctr[BFS_LEVELS] and ctr[BFS_REACHED]
// at the end.
template <typename O>
__device__ __forceinline__ void level_step(const O* __restrict__ row, const int* __restrict__ col, int n, int* hops,
                                           int* parent, int* order, long long offset, int cnt, u64* ctr, int level,
                                           int bottomUp, int hasBig, int check) {
    int s = level % 3;
    u64* nextCount = &ctr[BFS_NEXT_COUNT + s];
    u64* nextArcs = &ctr[BFS_NEXT_ARCS + s];
    int* cur = order + offset;
    int* next = cur + cnt;
    __shared__ int scratch[SCRATCH];
    QueueBuffer buffer = reinterpret_cast<QueueBuffer>(scratch);
    if (bottomUp) bottom_up(row, col, n, hops, parent, next, nextCount, nextArcs, level, buffer);
    else top_down(row, col, hops, parent, cur, cnt, next, nextCount, nextArcs, level, hasBig, check, buffer);
}

// The whole search in one cooperative launch. small: the most arcs of a frontier block 0 expands alone (0: never).
template <typename O>
__device__ __forceinline__ void persistent(const O* __restrict__ row, const int* __restrict__ col, int n,
                                           long long arcs, int* hops, int* parent, int* order, u64* ctr, int source,
                                           int fresh, int allowBottomUp, int hasBig, int check, long long small) {
    cg::grid_group grid = cg::this_grid();
    __shared__ __align__(sizeof(O)) int scratch[Scratch<O>::INTS];
    QueueBuffer buffer = reinterpret_cast<QueueBuffer>(scratch);
    init(n, hops, parent, order, ctr, source, fresh);
    grid.sync();

    long long offset = 0;   // where the current frontier starts in order[]
    u64 count = 1;
    u64 frontierArcs = (u64)(__ldg(&row[source + 1]) - __ldg(&row[source]));
    u64 explored = frontierArcs;
    bool bottomUp = false;
    int level = 0, rotation = 0;
    while (count > 0) {
        if (allowBottomUp) {
            u64 unexplored = (u64)arcs > explored ? (u64)arcs - explored : 0;
            if (!bottomUp && frontierArcs * ALPHA > unexplored) bottomUp = true;
            else if (bottomUp && count * BETA < (u64)n) bottomUp = false;
        }
        if (!bottomUp && small > 0 && count <= (u64)SMALL_VERTICES && frontierArcs <= (u64)small) {
            if (blockIdx.x == 0) {
                small_levels<O>(row, col, hops, parent, order, ctr, offset, (int)count, frontierArcs, explored, level,
                             rotation, (u64)small, scratch);
            }
            grid.sync();
            level = (int)ldcg(&ctr[BFS_AT_LEVEL]);
            offset = (long long)ldcg(&ctr[BFS_AT_OFFSET]);
            count = ldcg(&ctr[BFS_AT_COUNT]);
            frontierArcs = ldcg(&ctr[BFS_AT_ARCS]);
            explored = ldcg(&ctr[BFS_AT_EXPLORED]);
            rotation = (int)ldcg(&ctr[BFS_AT_ROTATION]);
            continue;
        }
        int s = (level + rotation) % 3;
        if (global_thread() == 0) {
            int z = (level + rotation + 1) % 3;
            ctr[BFS_NEXT_COUNT + z] = 0;
            ctr[BFS_NEXT_ARCS + z] = 0;
        }
        u64* nextCount = &ctr[BFS_NEXT_COUNT + s];
        u64* nextArcs = &ctr[BFS_NEXT_ARCS + s];
        int* cur = order + offset;
        int* next = cur + count;
        if (bottomUp) bottom_up(row, col, n, hops, parent, next, nextCount, nextArcs, level, buffer);
        else top_down(row, col, hops, parent, cur, (int)count, next, nextCount, nextArcs, level, hasBig, check,
                      buffer);
        grid.sync();
        offset += (long long)count;
        count = ldcg(&ctr[BFS_NEXT_COUNT + s]);
        frontierArcs = ldcg(&ctr[BFS_NEXT_ARCS + s]);
        explored += frontierArcs;
        level++;
    }
    if (global_thread() == 0) {
        ctr[BFS_LEVELS] = (u64)level;
        ctr[BFS_REACHED] = (u64)offset;
    }
}

}  // namespace

// Clears the last search's hops/parents (all n when fresh) and seeds order[] with the source (the host-driven variant).
extern "C" __global__ void bfs_init(int n, int* hops, int* parent, int* order, u64* ctr, int source, int fresh) {
    init(n, hops, parent, order, ctr, source, fresh);
}

extern "C" __global__ void bfs_level(const int* __restrict__ row, const int* __restrict__ col, int n, int* hops,
                                     int* parent, int* order, long long offset, int cnt, u64* ctr, int level,
                                     int bottomUp, int hasBig, int check) {
    level_step(row, col, n, hops, parent, order, offset, cnt, ctr, level, bottomUp, hasBig, check);
}

extern "C" __global__ void bfs_level_o64(const long long* __restrict__ row, const int* __restrict__ col, int n,
                                         int* hops, int* parent, int* order, long long offset, int cnt, u64* ctr,
                                         int level, int bottomUp, int hasBig, int check) {
    level_step(row, col, n, hops, parent, order, offset, cnt, ctr, level, bottomUp, hasBig, check);
}

extern "C" __global__ void bfs_persistent(const int* __restrict__ row, const int* __restrict__ col, int n,
                                          long long arcs, int* hops, int* parent, int* order, u64* ctr, int source,
                                          int fresh, int allowBottomUp, int hasBig, int check, long long small) {
    persistent(row, col, n, arcs, hops, parent, order, ctr, source, fresh, allowBottomUp, hasBig, check, small);
}

extern "C" __global__ void bfs_persistent_o64(const long long* __restrict__ row, const int* __restrict__ col, int n,
                                              long long arcs, int* hops, int* parent, int* order, u64* ctr,
                                              int source, int fresh, int allowBottomUp, int hasBig, int check,
                                              long long small) {
    persistent(row, col, n, arcs, hops, parent, order, ctr, source, fresh, allowBottomUp, hasBig, check, small);
}

// The SUMMARY of the last search, from its counters (issue 31: no pass over hops[]): out[0] += vertices reached,
// out[1] = max(out[1], largest hop count = levels - 1). out[] is zeroed by the host. One thread.
extern "C" __global__ void bfs_summary(const u64* __restrict__ ctr, u64* out) {
    if (global_thread() != 0) return;
    out[0] += ctr[BFS_REACHED];
    u64 best = ctr[BFS_LEVELS] > 0 ? ctr[BFS_LEVELS] - 1 : 0;
    if (best > out[1]) out[1] = best;
}
