// Multi-source BFS, bit-parallel: up to 64 searches share one traversal (MS-BFS: Then, Kaufmann, Chirigati,
// Hoang-Vu, Pham, Kemper, Neumann, Vo, "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2014;
// on the GPU after iBFS: Liu, Huang, Hu, "iBFS: Concurrent Breadth-First Search on GPUs", SIGMOD 2016). It answers
// BFS SUMMARY queries (reached count and largest hop count per source) without hop arrays.
//
// State, one bit per search (bit b = sources[b], the sources distinct): seen[v], the searches that reached v; visit,
// three arrays of n masks used in turn (level % 3): visit[l][v] = the searches that reached v at level l exactly,
// non-zero only for v in queue[l], the frontier list of that level. Level l reads frontier l, builds frontier l + 1
// and clears the masks of frontier l - 1, so each array is clean again before it is reused, with one grid barrier a
// level.
//   - top-down (push): each frontier vertex u sends visit[u] to its out-neighbours; atomicOr on seen[v] says which
//     bits are new at v ("fresh", each new bit seen by exactly one thread), a second atomicOr puts them in v's mask
//     of the next level, and the thread that finds that mask empty appends v to the next frontier.
//   - bottom-up (pull, undirected graphs only: in-neighbours are out-neighbours): each vertex that lacks some bit of
//     a search still running ("need") ORs the level's masks of its neighbours and stops once it has all it needs.
//   Direction as Beamer's rule, with MS-BFS weights: bottom-up when the frontier's arcs exceed the unexplored arcs
//   (those of vertices not yet seen by every search) / ALPHA and the frontier holds at least n / BETA vertices; back
//   when it holds fewer. A vertex stops pulling only once every running search has found it, so bottom-up rarely
//   stops early and pays only for large frontiers: ALPHA is smaller than single-source BFS's.
// Load balance (Merrill, Garland, Grimshaw, "Scalable GPU Graph Traversal", PPoPP 2012): vertices of fewer than 32
// arcs are gathered per warp (their arcs, concatenated, one per lane: top-down) or scanned by their own thread
// (bottom-up); up to BLOCK_EXPAND_DEGREE arcs, a warp per vertex; bigger vertices are listed and, after a grid
// barrier, expanded edge-balanced over the whole grid by frontier.cuh's advance (LoadBalance::WARP_EDGE).
// Counting: a warp transposes its lanes' fresh masks (32 x 32 bits, twice) so that lane l counts the hits of one bit
// of each half in a register for the whole search; the counts meet once, at the end, per block then in out[]. The
// largest hop count of search b is the last level whose frontier holds bit b (the OR of each level's masks).
//
// msbfs_pass runs one pass (up to 64 sources) in one cooperative launch (grid barrier per level, no host round trip).
// Counters (u64 ctr[], slots named by MsBfsCounter below): per level slots s = level % 3, zeroed one level before
// they are written again (as in bfs.cu); ctr[MSBFS_LEVELS] adds up the levels of the passes since the host zeroed it.
#include "frontier.cuh"

// Counter slots (u64 ctr[]), mirrored by MultiSourceBfs on the host
enum MsBfsCounter : int {
    MSBFS_NEXT_COUNT = 0,       // 3 slots, level % 3: size of the frontier the level builds
    MSBFS_NEXT_ARCS = 3,        // 3 slots: its arcs (undirected graphs: the direction rule)
    MSBFS_NEXT_LIVE = 6,        // 3 slots: the OR of its masks (the searches still running)
    MSBFS_NEXT_FULL_ARCS = 9,   // 3 slots: arcs of the vertices the level made seen by every search (undirected)
    MSBFS_BIG_COUNT = 12,       // 3 slots: big vertices the level listed for the edge-balanced pass
    MSBFS_BIG_ARCS = 15,        // 3 slots: advance's BigList counter for that pass
    MSBFS_SOURCE_ARCS = 18,     // arcs of the sources (the first frontier)
    MSBFS_LEVELS = 19,          // levels run, added up over the passes (the kernel never zeroes it)
    MSBFS_COUNTERS = 24         // size of the array the host allocates
};

using namespace frontier;

namespace {

constexpr u64 ALPHA = 4;
constexpr u64 BETA = 18;
constexpr int MAX_SOURCES = 64;

__device__ __forceinline__ u64 warp_or(u64 x) {
    unsigned lo = __reduce_or_sync(FULL_MASK, (unsigned)x);
    unsigned hi = __reduce_or_sync(FULL_MASK, (unsigned)(x >> 32));
    return ((u64)hi << 32) | lo;
}

// The sum of x over the warp, in lane 0.
__device__ __forceinline__ u64 warp_sum(u64 x) {
    for (int o = WARP / 2; o > 0; o >>= 1) x += __shfl_down_sync(FULL_MASK, x, o);
    return x;
}

// Transposes the 32 x 32 bit matrix whose rows are the lanes' words (Warren, "Hacker's Delight", transpose32, one
// row per lane, a shuffle per step): afterwards bit 31 - j of lane i's word is bit 31 - i of lane j's word before,
// so popc of lane i's word counts the lanes that had bit 31 - i set. Warp-collective.
__device__ __forceinline__ unsigned transpose32(unsigned x) {
    unsigned m = 0x0000FFFFu;
#pragma unroll
    for (int j = 16; j != 0; j >>= 1, m ^= m << j) {
        unsigned other = __shfl_xor_sync(FULL_MASK, x, j);
        if (lane_id() & j) x ^= ((other ^ (x >> j)) & m) << j;
        else x ^= (x ^ (other >> j)) & m;
    }
    return x;
}

// Per-bit hit counts of a warp, in registers for the whole search: lane l holds those of bits 31 - l and 63 - l.
struct BitCounter {
    unsigned low = 0, high = 0;

    // Counts each bit of each lane's mask once. Warp-collective.
    __device__ __forceinline__ void add(u64 bits) {
        unsigned lo = (unsigned)bits, hi = (unsigned)(bits >> 32);
        if (__any_sync(FULL_MASK, lo != 0)) low += __popc(transpose32(lo));
        if (__any_sync(FULL_MASK, hi != 0)) high += __popc(transpose32(hi));
    }

    // out[2 b] += the block's count of bit b, for b < k (in shared memory first: one global atomic per bit and
    // block). Every thread of the block calls it together.
    __device__ __forceinline__ void flush(u64* out, int k) {
        __shared__ unsigned sum[MAX_SOURCES];
        if (threadIdx.x < MAX_SOURCES) sum[threadIdx.x] = 0;
        __syncthreads();
        if (low != 0) atomicAdd(&sum[31 - lane_id()], low);
        if (high != 0) atomicAdd(&sum[63 - lane_id()], high);
        __syncthreads();
        if (threadIdx.x < k && sum[threadIdx.x] != 0) atomicAdd(&out[2 * threadIdx.x], (u64)sum[threadIdx.x]);
    }
};

// What one level finds, kept per thread and flushed per warp at the level's end: the next frontier (its list, arcs
// and masks), the bits that advanced (live) and the arcs of vertices that became seen by every search (fullArcs).
struct Discovery {
    const int* __restrict__ row;
    u64* seen;
    u64* next;          // the masks of the frontier being built
    u64 all;            // the bits of this pass's searches
    bool undirected;    // track the arcs the direction rule needs
    WarpQueue queue;
    BitCounter& counts;
    u64 live;
    u64 fullArcs;

    // Vertex v gained `fresh` (new at the next level; seen before: `before`); take: v joins the next frontier (the
    // caller saw its mask empty). deg: v's arcs. Warp-collective (lanes with nothing pass fresh == 0, take false).
    __device__ __forceinline__ void record(bool take, int v, u64 fresh, u64 before, unsigned deg) {
        counts.add(fresh);
        live |= fresh;
        if (undirected && fresh != 0 && (before | fresh) == all) fullArcs += deg;
        queue.push(take, v, undirected ? deg : 0);
    }

    // An arc into v carries the bits m (0: nothing): those v has not seen become v's next-level bits. Concurrent
    // arcs into v are settled by the atomics: each new bit is fresh for exactly one thread, and exactly one thread
    // finds v's next mask empty and lists v. Warp-collective.
    __device__ __forceinline__ void operator()(int v, u64 m) {
        u64 before = 0, fresh = 0;
        bool take = false;
        unsigned deg = 0;
        if (m != 0) {
            before = atomicOr(&seen[v], m);
            fresh = m & ~before;
            if (fresh != 0) {
                take = atomicOr(&next[v], fresh) == 0;
                if (undirected) deg = (unsigned)(__ldg(&row[v + 1]) - __ldg(&row[v]));
            }
        }
        record(take, v, fresh, before, deg);
    }

    // Publishes the warp's share of the level (queue, live bits, full arcs). Warp-collective.
    __device__ __forceinline__ void finish(u64* liveOut, u64* fullArcsOut) {
        queue.finish();
        u64 l = warp_or(live);
        u64 a = warp_sum(fullArcs);
        if (lane_id() == 0) {
            if (l != 0) atomicOr(liveOut, l);
            if (a != 0) atomicAdd(fullArcsOut, a);
        }
        live = 0;
        fullArcs = 0;
    }
};

// advance functor, top-down arcs of big frontier vertices: u sends its mask to v.
struct Push {
    typedef u64 Source;  // u's mask
    const u64* visit;
    const u64* seen;
    Discovery& found;

    __device__ __forceinline__ u64 source(int u) const { return ldcg(&visit[u]); }

    __device__ __forceinline__ void operator()(bool valid, int, const u64& f, int v, int) {
        found(v, valid ? f & ~ldcg(&seen[v]) : 0);
    }
};

// advance functor, bottom-up arcs of big vertices: v (the listed vertex) takes the needed bits of w's mask. The
// lanes holding arcs of one vertex are contiguous; their bits are ORed first, so one lane per vertex and warp
// touches v's masks.
struct Pull {
    typedef u64 Source;  // v's need
    const u64* visit;
    const u64* seen;
    u64 live;
    Discovery& found;

    __device__ __forceinline__ u64 source(int v) const { return live & ~ldcg(&seen[v]); }

    __device__ __forceinline__ void operator()(bool valid, int v, const u64& need, int w, int) {
        u64 m = valid ? ldcg(&visit[w]) & need : 0;
        int key = valid ? v : -1;
        for (int o = 1; o < WARP; o <<= 1) {  // lane i: OR over lanes i, i + 1, ... of the same vertex
            u64 other = __shfl_down_sync(FULL_MASK, m, o);
            int otherKey = __shfl_down_sync(FULL_MASK, key, o);
            if (lane_id() + o < WARP && otherKey == key) m |= other;
        }
        int previous = __shfl_up_sync(FULL_MASK, key, 1);
        bool head = valid && (lane_id() == 0 || previous != key);
        found(head ? v : 0, head ? m : 0);
    }
};

// Grid-stride bounds that keep whole warps in the loop together (collectives inside).
__device__ __forceinline__ long long warp_limit(long long count) {
    long long stride = grid_threads();
    return (count + stride - 1) / stride * stride;
}

// One top-down level over frontier[0, count). Big vertices go to big[] for the edge-balanced pass.
__device__ __forceinline__ void push_level(const int* __restrict__ row, const int* __restrict__ col,
                                           const int* frontier, long long count, const u64* visit, const u64* seen,
                                           Discovery& found, int* big, u64* bigCount, int hasBig) {
    long long limit = warp_limit(count);
    for (long long i = global_thread(); i < limit; i += grid_threads()) {
        int s = 0, deg = 0;
        u64 f = 0;
        if (i < count) {
            int u = ldcg(&frontier[i]);
            f = ldcg(&visit[u]);
            s = __ldg(&row[u]);
            deg = __ldg(&row[u + 1]) - s;
            if (hasBig && deg >= BLOCK_EXPAND_DEGREE) {
                big[atomicAdd(bigCount, 1ull)] = u;
                deg = 0;
            }
        }
        // a warp per medium vertex
        for (unsigned medium = __ballot_sync(FULL_MASK, deg >= WARP); medium != 0; medium &= medium - 1) {
            int l = __ffs(medium) - 1;
            int ms = __shfl_sync(FULL_MASK, s, l);
            int me = ms + __shfl_sync(FULL_MASK, deg, l);
            u64 mf = __shfl_sync(FULL_MASK, f, l);
            for (int base = ms; base < me; base += WARP) {
                int k = base + lane_id();
                int v = k < me ? __ldg(&col[k]) : 0;
                found(v, k < me ? mf & ~ldcg(&seen[v]) : 0);
            }
        }
        if (deg >= WARP) deg = 0;
        // small vertices: the warp's arcs, concatenated, one per lane; lane j's arc belongs to the last lane whose
        // offset (exclusive scan of the degrees) is <= j
        int offset = deg;
        for (int o = 1; o < WARP; o <<= 1) {
            int t = __shfl_up_sync(FULL_MASK, offset, o);
            if (lane_id() >= o) offset += t;
        }
        int total = __shfl_sync(FULL_MASK, offset, WARP - 1);
        offset -= deg;
        for (int base = 0; base < total; base += WARP) {
            int j = base + lane_id();
            int owner = 0;
            for (int step = WARP / 2; step > 0; step >>= 1) {
                int probe = owner + step;
                if (__shfl_sync(FULL_MASK, offset, probe) <= j) owner = probe;
            }
            int os = __shfl_sync(FULL_MASK, s, owner);
            int oo = __shfl_sync(FULL_MASK, offset, owner);
            u64 of = __shfl_sync(FULL_MASK, f, owner);
            bool valid = j < total;
            int v = valid ? __ldg(&col[os + (j - oo)]) : 0;
            found(v, valid ? of & ~ldcg(&seen[v]) : 0);
        }
    }
}

// One bottom-up level: every vertex that needs a running search's bit looks for it in its neighbours' masks of this
// level (visit). Big vertices go to big[] for the edge-balanced pass.
__device__ __forceinline__ void pull_level(const int* __restrict__ row, const int* __restrict__ col, int n,
                                           const u64* visit, u64* seen, u64* next, u64 live, Discovery& found,
                                           int* big, u64* bigCount, int hasBig) {
    long long limit = warp_limit(n);
    for (long long i = global_thread(); i < limit; i += grid_threads()) {
        int v = (int)i;
        u64 before = 0, need = 0, got = 0;
        int s = 0, deg = 0, arcs = 0;
        if (i < n) {
            before = ldcg(&seen[v]);
            need = live & ~before;
            if (need != 0) {
                s = __ldg(&row[v]);
                deg = arcs = __ldg(&row[v + 1]) - s;
                if (hasBig && deg >= BLOCK_EXPAND_DEGREE) {
                    big[atomicAdd(bigCount, 1ull)] = v;
                    deg = 0;
                }
            }
        }
        // a warp per medium vertex, 32 arcs a step until it has every needed bit
        for (unsigned medium = __ballot_sync(FULL_MASK, deg >= WARP); medium != 0; medium &= medium - 1) {
            int l = __ffs(medium) - 1;
            int ms = __shfl_sync(FULL_MASK, s, l);
            int me = ms + __shfl_sync(FULL_MASK, deg, l);
            u64 mneed = __shfl_sync(FULL_MASK, need, l);
            u64 acc = 0;  // warp-uniform
            for (int base = ms; base < me && acc != mneed; base += WARP) {
                int k = base + lane_id();
                acc |= warp_or(k < me ? ldcg(&visit[__ldg(&col[k])]) & mneed : 0);
            }
            if (lane_id() == l) got = acc;
        }
        // small vertices: their own thread, four arcs a step
        if (deg < WARP) {
            for (int k = s, e = s + deg; k < e && got != need; k += 4) {
                u64 a = 0;
#pragma unroll
                for (int t = 0; t < 4; t++) {
                    if (k + t < e) a |= ldcg(&visit[__ldg(&col[k + t])]);
                }
                got |= a & need;
            }
        }
        bool take = got != 0;
        if (take) {  // v is this thread's alone in a bottom-up level
            seen[v] = before | got;
            next[v] = got;
        }
        found.record(take, v, got, before, (unsigned)arcs);
    }
}

}  // namespace

// One pass of a bit-parallel BFS from sources[0, k) (k <= 64, distinct): out[2 b] += vertices search b reached (the
// source included), out[2 b + 1] = its largest hop count. out[] is zeroed by the host. seen: n masks; visit: 3 n
// masks; queues: 3 n vertices; big: 3 bigCap vertices (bigCap >= the vertices of at least BLOCK_EXPAND_DEGREE arcs).
extern "C" __global__ void __launch_bounds__(BLOCK_THREADS)
msbfs_pass(const int* __restrict__ row, const int* __restrict__ col, int n, long long arcs, u64* seen, u64* visit,
           int* queues, int* big, int bigCap, u64* ctr, const int* __restrict__ sources, int k, u64* out,
           int allowBottomUp, int hasBig) {
    __shared__ int buffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    cg::grid_group grid = cg::this_grid();
    const long long N = n;
    int* bigFrontier = big;
    int* bigVertex = big + bigCap;
    int* bigOffset = big + 2LL * bigCap;
    const u64 all = k >= MAX_SOURCES ? ~0ull : (1ull << k) - 1;

    for (long long v = global_thread(); v < N; v += grid_threads()) {
        seen[v] = 0;
        visit[v] = 0;
        visit[N + v] = 0;
        visit[2 * N + v] = 0;
    }
    if (global_thread() == 0) {
        for (int i = 0; i < MSBFS_LEVELS; i++) ctr[i] = 0;
    }
    grid.sync();

    BitCounter counts;
    if (global_thread() < k) {
        int t = (int)global_thread();
        int v = sources[t];
        seen[v] = 1ull << t;
        visit[v] = 1ull << t;
        queues[t] = v;
        atomicAdd(&ctr[MSBFS_SOURCE_ARCS], (u64)(__ldg(&row[v + 1]) - __ldg(&row[v])));
    }
    if (blockIdx.x == 0 && threadIdx.x < MAX_SOURCES) {  // each source reaches itself (warps 0 and 1 whole)
        counts.add(threadIdx.x < k ? 1ull << threadIdx.x : 0);
    }
    grid.sync();

    u64 count = (u64)k, prevCount = 0;
    u64 frontierArcs = ldcg(&ctr[MSBFS_SOURCE_ARCS]);
    u64 fullArcs = 0;
    u64 live = all;
    int last = 0;  // block 0, thread b < k: the last level that reached a vertex for search b
    bool bottomUp = false;
    int level = 0;
    while (count > 0) {
        int s = level % 3, s1 = (level + 1) % 3, s2 = (level + 2) % 3;
        if (global_thread() == 0) {
            for (int slot = MSBFS_NEXT_COUNT; slot < MSBFS_SOURCE_ARCS; slot += 3) ctr[slot + s1] = 0;
        }
        if (allowBottomUp) {
            u64 unexplored = (u64)arcs > fullArcs ? (u64)arcs - fullArcs : 0;
            if (!bottomUp && frontierArcs * ALPHA > unexplored && count * BETA >= (u64)n) bottomUp = true;
            else if (bottomUp && count * BETA < (u64)n) bottomUp = false;
        }
        const int* cur = queues + s * N;
        int* next = queues + s1 * N;
        const int* old = queues + s2 * N;
        const u64* curVisit = visit + s * N;
        u64* nextVisit = visit + s1 * N;
        u64* oldVisit = visit + s2 * N;

        // clear the masks of frontier level - 1 (array s2 holds frontier level + 2 next)
        for (long long i = global_thread(); i < (long long)prevCount; i += grid_threads()) oldVisit[ldcg(&old[i])] = 0;

        Discovery found{row, seen, nextVisit, all, allowBottomUp != 0,
                        WarpQueue(buffer, next, &ctr[MSBFS_NEXT_COUNT + s],
                                  allowBottomUp ? &ctr[MSBFS_NEXT_ARCS + s] : nullptr),
                        counts, 0, 0};
        if (bottomUp) {
            pull_level(row, col, n, curVisit, seen, nextVisit, live, found, bigFrontier, &ctr[MSBFS_BIG_COUNT + s],
                       hasBig);
        } else {
            push_level(row, col, cur, (long long)count, curVisit, seen, found, bigFrontier,
                       &ctr[MSBFS_BIG_COUNT + s], hasBig);
        }
        if (hasBig) {
            grid.sync();
            int listed = (int)ldcg(&ctr[MSBFS_BIG_COUNT + s]);
            if (listed > 0) {  // grid-uniform: every thread read the same count after the barrier
                BigList list{bigVertex, bigOffset, &ctr[MSBFS_BIG_ARCS + s]};
                if (bottomUp) {
                    Pull pull{curVisit, seen, live, found};
                    advance<LoadBalance::WARP_EDGE>(row, col, bigFrontier, listed, pull, 1, list);
                } else {
                    Push push{curVisit, seen, found};
                    advance<LoadBalance::WARP_EDGE>(row, col, bigFrontier, listed, push, 1, list);
                }
            }
        }
        found.finish(&ctr[MSBFS_NEXT_LIVE + s], &ctr[MSBFS_NEXT_FULL_ARCS + s]);
        grid.sync();

        prevCount = count;
        count = ldcg(&ctr[MSBFS_NEXT_COUNT + s]);
        frontierArcs = ldcg(&ctr[MSBFS_NEXT_ARCS + s]);
        live = ldcg(&ctr[MSBFS_NEXT_LIVE + s]);
        fullArcs += ldcg(&ctr[MSBFS_NEXT_FULL_ARCS + s]);
        level++;
        if (blockIdx.x == 0 && threadIdx.x < MAX_SOURCES && ((live >> threadIdx.x) & 1)) last = level;
    }

    counts.flush(out, k);
    if (blockIdx.x == 0 && threadIdx.x < k) out[2 * threadIdx.x + 1] = (u64)last;
    if (global_thread() == 0) ctr[MSBFS_LEVELS] += (u64)level;
}
