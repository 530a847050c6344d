// Minimum spanning forest after ECL-MST (Fallin, Gonzalez, Seo, Burtscher, "A High-Performance MST Implementation
// for GPUs", SC 2023): edge-centric, data-driven Boruvka over shrinking work lists of edges, with 64-bit
// (weight key << 32 | edge id) keys made minimal per component root by atomicMin, a lock-free union-find, and
// ECL-MST's weight filter. Host launcher: mst/EclMst.java (variant "ecl").
//
// Edges are int4 (u, v, weight key, edge id), as in mst.cu; keys are unique and order edges by (weight, edge id),
// so the forest is the unique one the CPU engine finds. The run, all on the device with no host round trip:
//   ecl_init          comp[v] = v, minKey[v] = U64_MAX, chosen bits 0 (the host zeroes the counters)
//   ecl_filter_light  one pass over the edge list: every edge with key <= threshold (a self-loop never) becomes a
//                     work-list entry (u, v, weight key, id) and lowers minKey[u] and minKey[v] (Boruvka's first
//                     minimum search, fused into the filter)
//   ecl_boruvka       (cooperative) rounds until the work list is empty, each (C) then (AB) (mst.cu's steps: the
//                     minima of a round's list were found while it was built, by the filter or the previous round):
//                       (C) every root with a minimum takes that edge into the forest (a bit per edge id) and unites
//                           the edge's two ends; it resets its own minKey
//                       (AB) every entry's ends are replaced by their roots; an entry whose ends share a root is
//                           dropped, the others are compacted into the other work list and lower their roots' minKey
//   and, when the host chose a threshold below the largest key (the filter is on):
//   ecl_flatten       comp[v] = root of v for every v (the light forest flattened: one read per end below)
//   ecl_filter_heavy  one pass over the edge list: every edge with key > threshold whose ends lie in different light
//                     trees becomes an entry (root u, root v, weight key, id) and lowers both roots' minKey
//   ecl_boruvka       again, on those entries
// Correct for any threshold: the light edges are a prefix of the (weight, id) order, so their minimum spanning forest
// is the one Kruskal builds first, and Boruvka on the heavy edges between its trees completes it. Each round is
// Boruvka's (every chosen edge is the unique minimum leaving a component, so it is in the forest; the union-find
// ignores an edge chosen by both of its ends); every non-empty round unites at least two components.
//
// What is ECL-MST's: the filter and its threshold (a sample quantile picked on the host so that about 1.5 n edges are
// light, and no filter below average degree 4), the packed int4 work-list entries carrying their ends' roots, the
// guarded atomicMin (read first, atomic only if lower), hooking the larger root under the smaller with atomicCAS, and
// work lists that only shrink (no round touches the whole edge list).
// What differs, and why:
//   - keys are (weight key, edge id) with the project's weight key (integer weight, or the rank among distinct
//     weights), and the threshold is a 64-bit key, so the light set has the chosen size even when weights tie;
//   - (C) runs over the list of roots that received a minimum (each root is listed once, by the atomicMin that lowered
//     it from U64_MAX) instead of over every entry, and the root resets its own minimum there: ECL-MST's kernel2
//     reads two minima per entry and its kernel3 stores U64_MAX twice per entry, which on a hub's root is millions of
//     accesses to one word;
//   - the filter passes read the edge list (the project's layout) instead of the CSR, list their entries in tiles with
//     one atomicAdd per block (ECL-MST: one atomicAdd per entry on one counter), and the light pass already lowers
//     the minima;
//   - a thread remembers the minimum it last saw of the smallest root it met (MinMemo): the root of the giant
//     component, which most entries touch late in a phase, is then not re-read from L2 by every entry;
//   - the heavy pass reads the flattened forest (one load per end) instead of walking each end to its root;
//   - path halving in find (ECL-MST's find does not write), and all rounds of a phase run in one cooperative launch
//     with grid barriers instead of three launches and a host read-back per round (road graphs need many rounds).
//
// Synchronization: data that other blocks change while ecl_boruvka runs (comp, minKey, the work lists, the counters)
// is read with ld.cg (L2), never through L1. minKey only decreases between two resets, and every reset is separated
// from the next atomicMin by a grid barrier or a kernel boundary, so a guard value read earlier in a phase is never
// below the current value: skipping the atomic when the key is not below it is safe.
//
// Counters (u64 ctr[], slots named by EclCounter below, mirrored by EclMst on the host).
#include "frontier.cuh"

// Counter slots (u64 ctr[]), mirrored by EclMst on the host
enum EclCounter : int {
    ECL_LIST_COUNT = 0,     // 2 slots, round % 2: entries of the work list that round r reads (the filter: slot 0)
    ECL_ROOT_COUNT = 2,     // 2 slots, round % 2: roots holding a minimum for round r (the filter: slot 0)
    ECL_LIGHT_ENTRIES = 4,  // entries of the light work list
    ECL_HEAVY_ENTRIES = 5,  // entries of the heavy work list
    ECL_LIGHT_ROUNDS = 6,   // Boruvka rounds of the light phase
    ECL_HEAVY_ROUNDS = 7,   // Boruvka rounds of the heavy phase
    ECL_ENTRY_VISITS = 8,   // work-list entries read by the rounds of both phases
    ECL_COUNTERS = 16       // size of the array the host allocates
};

// The phase argument of ecl_boruvka (selects its ENTRIES and ROUNDS slots)
enum EclPhase : int {
    ECL_PHASE_LIGHT = 0,
    ECL_PHASE_HEAVY = 1
};

using namespace frontier;

namespace {

// Edges (filters) or entries (rounds) per thread in one tile; a tile is listed with one atomicAdd per block.
constexpr int FILTER_ITEMS = 4;  // four independent loads in flight per thread (55 registers: 4 blocks per SM)
constexpr int ROUND_ITEMS = 1;   // small tiles: late rounds have short lists and a round waits for its slowest block
// ecl_boruvka fits in 32 registers without spilling: full occupancy for its dependent find() loads
constexpr int ROUND_MIN_BLOCKS_PER_SM = 8;
constexpr int FILTER_TILE = FILTER_ITEMS * BLOCK_THREADS;
constexpr int ROUND_TILE = ROUND_ITEMS * BLOCK_THREADS;
constexpr int COUNT_BITS = 16;  // a block's entry and root counts are scanned together, packed in one int
constexpr int COUNT_MASK = (1 << COUNT_BITS) - 1;
static_assert(2 * FILTER_ITEMS * BLOCK_THREADS <= COUNT_MASK, "a block's counts must fit in COUNT_BITS");

__device__ __forceinline__ u64 key_of(int4 e) { return ((u64)(unsigned)e.z << 32) | (unsigned)e.w; }

__device__ __forceinline__ int4 ldcg4(const int4* p) { return __ldcg(p); }

// Root of x, halving the path on the way (every write points a non-root at one of its ancestors; links only ever
// point at a smaller index, so there is no cycle).
__device__ __forceinline__ int find(int* comp, int x) {
    int p = ldcg(&comp[x]);
    while (p != x) {
        int gp = ldcg(&comp[p]);
        if (gp != p) comp[x] = gp;
        x = p;
        p = gp;
    }
    return x;
}

// Unites the sets of a and b: the larger root hooks under the smaller one with atomicCAS (retried when that root
// was hooked meanwhile).
__device__ __forceinline__ void unite(int* comp, int a, int b) {
    while (true) {
        a = find(comp, a);
        b = find(comp, b);
        if (a == b) return;
        if (a < b) {
            int t = a;
            a = b;
            b = t;
        }
        if (atomicCAS(&comp[a], a, b) == a) return;
    }
}

// What a thread last learnt of one root's minimum in the current phase (between two resets of minKey): key is a value
// minKey[root] held in this phase, so it is never below the current one. Reset for every phase.
struct MinMemo {
    int root = -1;
    u64 key = U64_MAX;
};

// Lowers minKey[r] to k (skipped when an earlier value is already not above k). Returns true for the one call of the
// phase that lowers it from U64_MAX: that caller lists r among the roots with a minimum. The memo keeps the smallest
// root the thread met: the larger root always hooks under the smaller, so a tree's root is its smallest vertex and
// the giant component's root is about the smallest of all.
__device__ __forceinline__ bool lower_min(u64* minKey, int r, u64 k, MinMemo& memo) {
    u64 seen = memo.root == r ? memo.key : ldcg(&minKey[r]);
    bool first = false;
    if (k < seen) {
        u64 old = atomicMin(&minKey[r], k);
        first = old == U64_MAX;
        seen = old < k ? old : k;
    }
    if (memo.root < 0 || r <= memo.root) {
        memo.root = r;
        memo.key = seen;
    }
    return first;
}

// One tile's output per thread: up to ITEMS work-list entries and 2 * ITEMS roots, in fixed slots (a bit each says
// whether the slot is used), so the registers are indexed by constants once the loops are unrolled.
template <int ITEMS>
struct Tile {
    int4 entry[ITEMS];
    int root[2 * ITEMS];
    unsigned entries = 0;
    unsigned roots = 0;

    __device__ __forceinline__ void keep(int j, int4 e) {
        entry[j] = e;
        entries |= 1u << j;
    }

    __device__ __forceinline__ void list_root(int j, int r) {
        root[j] = r;
        roots |= 1u << j;
    }

    // Appends every thread's entries to list[] and roots to rootList[], reserving room with one atomicAdd per block
    // on each count. Every thread of the block must call it together.
    __device__ __forceinline__ void append(int4* __restrict__ list, int* __restrict__ rootList, u64* listCount,
                                           u64* rootCount) {
        __shared__ int warpSum[WARPS_PER_BLOCK];
        __shared__ u64 listBase, rootBase;
        int mine = __popc(entries) | (__popc(roots) << COUNT_BITS);
        int incl = mine;  // inclusive prefix over the warp's lanes
#pragma unroll
        for (int d = 1; d < WARP; d <<= 1) {
            int t = __shfl_up_sync(FULL_MASK, incl, d);
            if (lane_id() >= d) incl += t;
        }
        int w = threadIdx.x / WARP;
        if (lane_id() == WARP - 1) warpSum[w] = incl;
        __syncthreads();
        if (threadIdx.x == 0) {
            int sum = 0;
            for (int i = 0; i < WARPS_PER_BLOCK; i++) {
                int t = warpSum[i];
                warpSum[i] = sum;
                sum += t;
            }
            int nEntries = sum & COUNT_MASK, nRoots = sum >> COUNT_BITS;
            listBase = nEntries > 0 ? atomicAdd(listCount, (u64)nEntries) : 0;
            rootBase = nRoots > 0 ? atomicAdd(rootCount, (u64)nRoots) : 0;
        }
        __syncthreads();
        int before = warpSum[w] + incl - mine;  // exclusive prefix over the block, both counts packed
        u64 at = listBase + (before & COUNT_MASK);
#pragma unroll
        for (int j = 0; j < ITEMS; j++) {
            if (entries >> j & 1u) list[at++] = entry[j];
        }
        at = rootBase + (before >> COUNT_BITS);
#pragma unroll
        for (int j = 0; j < 2 * ITEMS; j++) {
            if (roots >> j & 1u) rootList[at++] = root[j];
        }
        __syncthreads();  // warpSum and the bases are rewritten by the block's next tile
    }
};

// The filter passes: light takes every edge with key <= threshold as it is (every vertex is a root), heavy every edge
// with key > threshold between two different trees of the flattened light forest, with its ends' roots. Tiles of
// FILTER_TILE edges, grid-stride over tiles (the loop is uniform over the block: append synchronises it).
template <bool HEAVY>
__device__ __forceinline__ void filter(const int4* __restrict__ edges, long long m, u64 threshold,
                                       const int* __restrict__ comp, int4* __restrict__ list, int* __restrict__ roots,
                                       u64* minKey, u64* ctr) {
    MinMemo memo;
    for (long long base = (long long)blockIdx.x * FILTER_TILE; base < m; base += (long long)gridDim.x * FILTER_TILE) {
        Tile<FILTER_ITEMS> t;
#pragma unroll
        for (int j = 0; j < FILTER_ITEMS; j++) {
            long long i = base + j * BLOCK_THREADS + threadIdx.x;
            if (i >= m) continue;
            int4 e = __ldg(&edges[i]);
            u64 k = key_of(e);
            if (HEAVY ? k <= threshold : k > threshold) continue;
            if (HEAVY) {
                e.x = __ldg(&comp[e.x]);  // flattened: the root
                e.y = __ldg(&comp[e.y]);
            }
            if (e.x == e.y) continue;  // a self-loop, or (heavy) both ends in one light tree
            t.keep(j, e);
            if (lower_min(minKey, e.x, k, memo)) t.list_root(2 * j, e.x);
            if (lower_min(minKey, e.y, k, memo)) t.list_root(2 * j + 1, e.y);
        }
        t.append(list, roots, &ctr[ECL_LIST_COUNT], &ctr[ECL_ROOT_COUNT]);
    }
}

}  // namespace

extern "C" __global__ void ecl_init(int n, long long words, int* __restrict__ comp, u64* __restrict__ minKey,
                                    unsigned* __restrict__ chosen) {
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        comp[v] = (int)v;
        minKey[v] = U64_MAX;
    }
    for (long long i = global_thread(); i < words; i += grid_threads()) chosen[i] = 0;
}

// Entries into list (count in ctr[ECL_LIST_COUNT], zero before), their ends into roots (ctr[ECL_ROOT_COUNT]).
extern "C" __global__ void ecl_filter_light(const int4* __restrict__ edges, long long m, u64 threshold,
                                            int4* __restrict__ list, int* __restrict__ roots, u64* minKey, u64* ctr) {
    filter<false>(edges, m, threshold, nullptr, list, roots, minKey, ctr);
}

// comp[v] = the root of v. Nothing is united meanwhile, so roots stay roots; each thread writes only its own
// vertex, with its root, so any value another thread reads (old or new, even from L1) is an ancestor.
extern "C" __global__ void ecl_flatten(int n, int* comp) {
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        int r = comp[v];
        int p;
        while ((p = comp[r]) != r) r = p;
        comp[v] = r;
    }
}

// As ecl_filter_light for the edges above the threshold, on the flattened comp (read-only here).
extern "C" __global__ void ecl_filter_heavy(const int4* __restrict__ edges, long long m, u64 threshold,
                                            const int* __restrict__ comp, int4* __restrict__ list,
                                            int* __restrict__ roots, u64* minKey, u64* ctr) {
    filter<true>(edges, m, threshold, comp, list, roots, minKey, ctr);
}

// Boruvka rounds on the work list in listA (count in ctr[ECL_LIST_COUNT]) whose roots with a minimum are in rootsA
// (ctr[ECL_ROOT_COUNT]); ctr[ECL_LIST_COUNT + 1] and ctr[ECL_ROOT_COUNT + 1] must be zero. Round r reads the lists
// of parity r % 2 and builds those of parity (r + 1) % 2. Ends with both work lists empty, every minKey U64_MAX and
// the four count slots zero. Cooperative launch, blocks of BLOCK_THREADS.
extern "C" __global__ void __launch_bounds__(BLOCK_THREADS, ROUND_MIN_BLOCKS_PER_SM)
    ecl_boruvka(const int4* __restrict__ edges, int phase, int4* listA, int4* listB, int* rootsA, int* rootsB,
                int* comp, u64* minKey, unsigned* chosen, u64* ctr) {
    cg::grid_group grid = cg::this_grid();
    int round = 0;
    while (true) {
        const int s = round & 1;
        // the lists of round r are those of parity r % 2 (the filter kernels fill listA and rootsA)
        const int4* cur = s ? listB : listA;
        int4* next = s ? listA : listB;
        const int* curRoots = s ? rootsB : rootsA;
        int* nextRoots = s ? rootsA : rootsB;
        // written before the last barrier (or by the filter kernel); read by every thread before the next barrier,
        // zeroed after it (below), refilled in the next round
        const long long count = (long long)ldcg(&ctr[ECL_LIST_COUNT + s]);
        const long long rootCount = (long long)ldcg(&ctr[ECL_ROOT_COUNT + s]);
        if (count == 0) break;  // uniform: every thread read the same value
        if (global_thread() == 0) {
            if (round == 0) ctr[ECL_LIGHT_ENTRIES + phase] = (u64)count;
            ctr[ECL_ENTRY_VISITS] = ldcg(&ctr[ECL_ENTRY_VISITS]) + (u64)count;
        }

        // (C) each root with a minimum: the edge into the forest, its ends united, the minimum reset
        for (long long i = global_thread(); i < rootCount; i += grid_threads()) {
            int r = ldcg(&curRoots[i]);
            u64 k = ldcg(&minKey[r]);
            minKey[r] = U64_MAX;  // nobody else reads minKey[r] before the barrier
            unsigned id = (unsigned)k;
            atomicOr(&chosen[id >> 5], 1u << (id & 31));
            int4 e = __ldg(&edges[id]);
            unite(comp, e.x, e.y);
        }
        grid.sync();

        // (AB) roots of every entry, entries inside one component dropped, the rest listed with the new minima
        if (global_thread() == 0) {
            ctr[ECL_LIST_COUNT + s] = 0;
            ctr[ECL_ROOT_COUNT + s] = 0;
        }
        MinMemo memo;
        for (long long base = (long long)blockIdx.x * ROUND_TILE; base < count;
             base += (long long)gridDim.x * ROUND_TILE) {
            Tile<ROUND_ITEMS> t;
#pragma unroll
            for (int j = 0; j < ROUND_ITEMS; j++) {
                long long i = base + j * BLOCK_THREADS + threadIdx.x;
                if (i >= count) continue;
                int4 e = ldcg4(&cur[i]);
                e.x = find(comp, e.x);
                e.y = find(comp, e.y);
                if (e.x == e.y) continue;
                u64 k = key_of(e);
                t.keep(j, e);
                if (lower_min(minKey, e.x, k, memo)) t.list_root(2 * j, e.x);
                if (lower_min(minKey, e.y, k, memo)) t.list_root(2 * j + 1, e.y);
            }
            t.append(next, nextRoots, &ctr[ECL_LIST_COUNT + (s ^ 1)], &ctr[ECL_ROOT_COUNT + (s ^ 1)]);
        }
        grid.sync();
        round++;
    }
    if (global_thread() == 0) ctr[ECL_LIGHT_ROUNDS + phase] = (u64)round;
}
