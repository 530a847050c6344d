// Shortest paths from several sources in one cooperative launch (issue 10, batched SUMMARY answers): near-far
// delta-stepping (Davidson, Baxter, Garland, Owens, "Work-Efficient Parallel GPU Methods for Single-Source Shortest
// Paths", IPDPS 2014; sssp.cu runs it for one source) for k <= MSSSP_MAX_SOURCES sources side by side, so that a
// latency-bound graph (a road network: hundreds of vertices per iteration, a grid barrier each) pays one barrier per
// step for all k sources: steps = the most any one source needs, not their sum.
//
// Keys are sssp.cu's: integer distances as u64 (sssp_multi_i32) or the bits of non-negative doubles (sssp_multi_f64),
// relaxed with atomicMin of the correctly rounded dist[u] + w, so each source's distances are the least fixed point
// of dist[v] = min(dist[u] + w): bit for bit what Dijkstra computes. Only the order of relaxations differs from
// sssp.cu, never the answer: every lowering of a key puts its vertex in the next near queue or its source's far pile,
// whose expansion reads the key again.
//
// State of source s (0 <= s < k), slice s of each [k][n] array: dist[s n + v]; nearMark / farMark[s n + v] (a vertex
// enters a near queue at most once per step and a far pile at most once per epoch); two far piles of n vertices
// (far + (2 s + epoch % 2) n: the pile a filter reads is consumed by the next filter, so sssp.cu's third pile is not
// needed); and, in ctr at MSSSP_SOURCE_BASE + s * MSSSP_SOURCE_STRIDE, the far piles' sizes and smallest keys, three
// slots each rotating by epoch % 3 (a filter reads slot e, writes the kept vertices to slot e + 1, clears slot e + 2,
// which nobody reads or writes until the next filter: no extra barrier). Its threshold and epoch (filters done) live
// in shared memory: every block computes the same plan from the same counters.
//
// One step (one grid barrier, two where some vertex has at least MSSSP_WIDE_DEGREE arcs):
// - plan: source s EXPANDs when the last step put items of s in the near queue (bit s of the near mask), else
//   FILTERs when its far pile holds vertices (threshold := max(threshold, smallest key in the pile) + delta), else is
//   IDLE (for good: only a source's own expansions and filters give it work); all IDLE ends the launch. A source
//   never expands and filters in the same step. Warp 0 of each block makes the plan in shared memory.
// - expansion of the near queue, one queue for all sources: items are s n + v (int: the host keeps k n < 2^31).
//   Items are spread evenly over the warps, up to 32 a warp, one a lane; the arcs of a warp's items with fewer than
//   MSSSP_WIDE_DEGREE arcs are concatenated and split over its lanes (a road vertex's 2-4 arcs no longer take a warp
//   each); wider items are listed and, after a grid barrier, their concatenated arcs are split evenly over all warps
//   in 32-arc chunks (frontier.cuh's WARP_EDGE, here with item lists). An improved vertex below its source's
//   threshold goes to the next near queue (one WarpQueue for all sources; bit s set in the near mask), one at or
//   above it to its source's far pile (appended by source groups, __match_any_sync).
// - filter of the FILTERing sources' far piles, concatenated over the grid: a vertex below the new threshold goes to
//   the next near queue, the others to the source's other pile.
// Counters (u64 ctr[], slots named by MultiSsspCounter below): the near queue's size and the near mask by step % 3
// (cleared one step ahead), the wide list's (items << MSSSP_WIDE_SHIFT) | arcs by step % 2; MSSSP_STEPS, _FILTERS and
// _ITEMS add up over launches until the host clears them. sssp_multi_summary then reduces each slice
// (sssp_keys.cuh's summarize_keys).
#include "frontier.cuh"
#include "sssp_keys.cuh"

// Counter slots (u64 ctr[]), mirrored by MultiSssp on the host
enum MultiSsspCounter : int {
    MSSSP_NEAR_COUNT = 0,    // 3 slots, step % 3: items in the near queue the step builds
    MSSSP_NEAR_MASK = 3,     // 3 slots, step % 3: bit s set when source s has items in that queue
    MSSSP_WIDE = 6,          // 2 slots, step % 2: (wide items listed << MSSSP_WIDE_SHIFT) | their arcs
    MSSSP_STEPS = 8,         // steps run, added up over launches (the host clears it)
    MSSSP_FILTERS = 9,       // far-pile filters run, all sources, added up likewise
    MSSSP_ITEMS = 10,        // near-queue items expanded, all sources, added up likewise
    MSSSP_SOURCE_BASE = 16,  // first per-source slot: far pile sizes (3, epoch % 3), then smallest keys (3)
    MSSSP_COUNTERS = 272     // size of the array the host allocates: MSSSP_SOURCE_BASE + 32 sources * 8
};

// Sizes the host needs (MultiSssp mirrors them)
enum MultiSsspLayout : int {
    MSSSP_MAX_SOURCES = 32,    // sources per launch (a bit each in the near mask)
    MSSSP_SOURCE_STRIDE = 8,   // counter slots per source
    MSSSP_WIDE_DEGREE = 32,    // items with at least this many arcs are expanded edge-balanced over the grid
    MSSSP_WIDE_SHIFT = 36      // the wide counter: items listed above this bit, arcs below (host: items < 2^28)
};

using namespace frontier;

namespace {

constexpr int MAXK = MSSSP_MAX_SOURCES;
constexpr int FAR_COUNT = 0;  // per-source slot offsets
constexpr int FAR_MIN = 3;
constexpr u64 WIDE_ARCS_MASK = (1ull << MSSSP_WIDE_SHIFT) - 1;
static_assert(MSSSP_SOURCE_BASE + MAXK * MSSSP_SOURCE_STRIDE == MSSSP_COUNTERS, "counter layout");

// IntWeights, DoubleWeights: sssp_keys.cuh

enum Mode : int { IDLE = 0, EXPAND = 1, FILTER = 2 };

// What each source does this step, in shared memory; every block computes the same plan (make_plan).
struct Plan {
    u64 threshold[MAXK];        // near/far split of each source's keys
    u64 size[MAXK];             // FILTER: vertices in the pile it reads
    u64 filterStart[MAXK + 1];  // the filtering sources' piles concatenated: the j-th starts at filterStart[j]
    int filterSource[MAXK];     // the j-th filtering source
    int epoch[MAXK];            // filters the source has run
    int mode[MAXK];             // Mode
    int source[MAXK];           // the source vertices
    int filters;                // filtering sources this step
    int active;                 // some source is not IDLE
};

template <typename W>
struct Multi {
    const int* __restrict__ row;
    const int* __restrict__ col;
    const typename W::type* __restrict__ wt;
    int n;
    int k;
    u64* dist;
    int* far;
    int* nearMark;
    int* farMark;
    u64* ctr;
    Plan* plan;  // this block's (shared memory)

    __device__ __forceinline__ u64* farCount(int s, int e) const {
        return &ctr[MSSSP_SOURCE_BASE + s * MSSSP_SOURCE_STRIDE + FAR_COUNT + e % 3];
    }
    __device__ __forceinline__ u64* farMin(int s, int e) const {
        return &ctr[MSSSP_SOURCE_BASE + s * MSSSP_SOURCE_STRIDE + FAR_MIN + e % 3];
    }
    __device__ __forceinline__ int* pile(int s, int e) const { return far + (2LL * s + (e & 1)) * n; }
};

// Appends v to far pile e of source s for the lanes with take, one atomicAdd per source among them (lanes of one
// warp hold one source but where a wide item or a pile ends in the middle of a chunk). All lanes call it together.
template <typename W>
__device__ __forceinline__ void far_push(const Multi<W>& m, bool take, int s, int e, int v) {
    if (__ballot_sync(FULL_MASK, take) == 0) return;
    unsigned peers = __match_any_sync(FULL_MASK, take ? s : -1);
    int leader = __ffs(peers) - 1;
    u64 base = 0;
    if (take && lane_id() == leader) base = atomicAdd(m.farCount(s, e), (u64)__popc(peers));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (take) m.pile(s, e)[base + __popc(peers & lanes_below())] = v;
}

// Relaxes vertex v of source s to key nd (lanes with valid): an improvement goes to the next near queue (below the
// threshold; bit s of nearBits) or to the far pile of the source's epoch. All lanes call it together.
template <typename W>
__device__ __forceinline__ void relax(const Multi<W>& m, bool valid, int s, int v, u64 nd, int nearTag,
                                      WarpQueue& nearQueue, unsigned& nearBits) {
    bool toNear = false, toFar = false;
    long long x = 0;
    int e = 0;
    if (valid) {
        x = (long long)s * m.n + v;
        e = m.plan->epoch[s];
        if (nd < ldcg(&m.dist[x])) {
            u64 old = atomicMin(&m.dist[x], nd);
            if (nd < old) {
                if (nd < m.plan->threshold[s]) {
                    toNear = atomicExch(&m.nearMark[x], nearTag) != nearTag;
                } else {
                    u64* low = m.farMin(s, e);
                    if (nd < ldcg(low)) atomicMin(low, nd);
                    toFar = atomicExch(&m.farMark[x], e) != e;
                }
            }
        }
    }
    if (toNear) nearBits |= 1u << s;
    nearQueue.push(toNear, (int)x);
    far_push(m, toFar, s, e, v);
}

// Lists the lanes' wide items with the offset of their first arc in the concatenation of the step's wide arcs: one
// atomicAdd per warp reserves list positions and arcs together, so offsets ascend with positions.
__device__ __forceinline__ void wide_push(bool wide, int item, int degree, int* wideItem, u64* wideOffset,
                                          u64* wideCtr) {
    unsigned takers = __ballot_sync(FULL_MASK, wide);
    if (takers == 0) return;
    int arcs = 0;
    int before = warp_exclusive(wide ? degree : 0, arcs);
    u64 base = 0;
    if (lane_id() == 0) base = atomicAdd(wideCtr, ((u64)__popc(takers) << MSSSP_WIDE_SHIFT) | (u64)arcs);
    base = __shfl_sync(FULL_MASK, base, 0);
    if (wide) {
        u64 at = (base >> MSSSP_WIDE_SHIFT) + __popc(takers & lanes_below());
        wideItem[at] = item;
        wideOffset[at] = (base & WIDE_ARCS_MASK) + (u64)before;
    }
}

// Expands cur[0, count): up to 32 items a warp, one a lane, spread evenly over the warps; the arcs of the items with
// fewer than MSSSP_WIDE_DEGREE arcs concatenated and split over the warp's lanes, the wider ones listed (hasWide).
template <typename W>
__device__ __forceinline__ void expand_items(const Multi<W>& m, const int* cur, long long count, int hasWide,
                                             int* wideItem, u64* wideOffset, u64* wideCtr, int nearTag,
                                             WarpQueue& nearQueue, unsigned& nearBits) {
    long long warps = grid_warps();
    long long per = (count + warps - 1) / warps;
    per = per < 1 ? 1 : (per > WARP ? WARP : per);
    for (long long b = global_warp() * per; b < count; b += warps * per) {  // warp-uniform
        long long i = b + lane_id();
        bool has = lane_id() < per && i < count;
        int item = 0, s = 0, start = 0, degree = 0;
        u64 du = 0;
        if (has) {
            item = ldcg(&cur[i]);
            s = item / m.n;
            int u = item - s * m.n;
            du = ldcg(&m.dist[item]);  // alongside the row: one round trip for both
            start = __ldg(&m.row[u]);
            degree = __ldg(&m.row[u + 1]) - start;
        }
        bool wide = has && hasWide && degree >= MSSSP_WIDE_DEGREE;
        if (hasWide) wide_push(wide, item, degree, wideItem, wideOffset, wideCtr);
        int mine = has && !wide ? degree : 0;
        int total = 0;
        int before = warp_exclusive(mine, total);
        for (int p0 = 0; p0 < total; p0 += WARP) {  // warp-uniform
            int p = p0 + lane_id();
            // the lane whose arcs hold position p: the last j with before_j <= p (it has arcs: before_{j+1} > p)
            int j = 0;
            for (int step = WARP / 2; step > 0; step >>= 1) {
                if (__shfl_sync(FULL_MASK, before, j + step) <= p) j += step;
            }
            int js = __shfl_sync(FULL_MASK, s, j);
            int jstart = __shfl_sync(FULL_MASK, start, j);
            int jbefore = __shfl_sync(FULL_MASK, before, j);
            u64 jd = __shfl_sync(FULL_MASK, du, j);
            bool valid = p < total;
            int v = -1;
            u64 nd = 0;
            if (valid) {
                int a = jstart + (p - jbefore);
                v = __ldg(&m.col[a]);
                nd = W::add(jd, __ldg(&m.wt[a]));
            }
            relax<W>(m, valid, js, v, nd, nearTag, nearQueue, nearBits);
        }
    }
}

// The arcs of the listed wide items, concatenated, split evenly over the grid's warps in 32-arc chunks (after a grid
// barrier: the list is complete).
template <typename W>
__device__ __forceinline__ void expand_wide(const Multi<W>& m, const int* wideItem, const u64* wideOffset,
                                            const u64* wideCtr, int nearTag, WarpQueue& nearQueue,
                                            unsigned& nearBits) {
    u64 packed = ldcg(wideCtr);
    long long listed = (long long)(packed >> MSSSP_WIDE_SHIFT);
    long long total = (long long)(packed & WIDE_ARCS_MASK);
    long long chunks = (total + WARP - 1) / WARP, warps = grid_warps(), w = global_warp();
    long long lo = w * chunks / warps * WARP, hi = (w + 1) * chunks / warps * WARP;
    if (hi > total) hi = total;
    if (lo >= hi) return;  // warp-uniform
    // the item holding arc lo: the last idx with wideOffset[idx] <= lo
    long long a = 0, b = listed - 1;
    while (a < b) {
        long long mid = (a + b + 1) >> 1;
        if ((long long)ldcg(&wideOffset[mid]) <= lo) a = mid;
        else b = mid - 1;
    }
    long long idx = a;
    long long first = (long long)ldcg(&wideOffset[idx]);
    long long end = idx + 1 < listed ? (long long)ldcg(&wideOffset[idx + 1]) : total;
    int item = ldcg(&wideItem[idx]);
    int s = item / m.n;
    int start = __ldg(&m.row[item - s * m.n]);
    u64 du = ldcg(&m.dist[item]);
    for (long long base = lo; base < hi; base += WARP) {  // warp-uniform
        long long p = base + lane_id();
        bool valid = p < hi;
        int v = -1;
        u64 nd = 0;
        if (valid) {
            while (p >= end) {  // at most once per chunk: wide items have at least 32 arcs
                idx++;
                first = end;
                end = idx + 1 < listed ? (long long)ldcg(&wideOffset[idx + 1]) : total;
                item = ldcg(&wideItem[idx]);
                s = item / m.n;
                start = __ldg(&m.row[item - s * m.n]);
                du = ldcg(&m.dist[item]);
            }
            int arc = start + (int)(p - first);
            v = __ldg(&m.col[arc]);
            nd = W::add(du, __ldg(&m.wt[arc]));
        }
        relax<W>(m, valid, s, v, nd, nearTag, nearQueue, nearBits);
    }
}

// Splits the piles of the FILTERing sources (concatenated over the grid): a vertex below its source's new threshold
// to the next near queue, the others to the source's next pile (farMark := epoch + 1).
template <typename W>
__device__ __forceinline__ void filter_piles(const Multi<W>& m, int nearTag, WarpQueue& nearQueue,
                                             unsigned& nearBits) {
    const Plan& plan = *m.plan;
    int nf = plan.filters;
    if (nf == 0) return;
    long long total = (long long)plan.filterStart[nf];
    long long stride = grid_threads();
    long long limit = (total + stride - 1) / stride * stride;  // the same trip count on every lane
    for (long long i = global_thread(); i < limit; i += stride) {
        bool toNear = false, keep = false;
        int s = 0, e = 0, v = 0;
        long long x = 0;
        if (i < total) {
            int j = 0;  // the last filtering source whose pile starts at or before i
            for (int step = MAXK / 2; step > 0; step >>= 1) {
                if (j + step < nf && (long long)plan.filterStart[j + step] <= i) j += step;
            }
            s = plan.filterSource[j];
            e = plan.epoch[s];
            v = ldcg(&m.pile(s, e)[i - (long long)plan.filterStart[j]]);
            x = (long long)s * m.n + v;
            u64 d = ldcg(&m.dist[x]);
            if (d < plan.threshold[s]) {
                toNear = atomicExch(&m.nearMark[x], nearTag) != nearTag;
            } else {
                keep = true;
                m.farMark[x] = e + 1;
                u64* low = m.farMin(s, e + 1);
                if (d < ldcg(low)) atomicMin(low, d);
            }
        }
        if (toNear) nearBits |= 1u << s;
        nearQueue.push(toNear, (int)x);
        far_push(m, keep, s, e + 1, v);
    }
}

// This step's plan from the counters the last step left, made by warp 0 of every block alike: each source's mode,
// threshold and epoch, and the concatenation of the piles to filter. maskSlot: bit s set when the last step put items
// of source s in the near queue. A source's far-pile counters are read alongside the mask (one round trip) and used
// only when the source does not expand, so that nobody changes them during the step. IDLE is final: only a source's
// own expansions and filters give it work.
template <typename W>
__device__ __forceinline__ void make_plan(const Multi<W>& m, const u64* maskSlot, u64 delta) {
    Plan& plan = *m.plan;
    if (threadIdx.x < WARP) {
        int s = threadIdx.x;
        int mode = IDLE;
        u64 size = 0;
        if (s < m.k && plan.mode[s] != IDLE) {
            if (plan.mode[s] == FILTER) plan.epoch[s]++;  // the last step's filter moved the source to its next pile
            int e = plan.epoch[s];
            u64 mask = ldcg(maskSlot);
            u64 pile = ldcg(m.farCount(s, e));
            u64 low = ldcg(m.farMin(s, e));
            if ((mask >> s) & 1) {
                mode = EXPAND;
            } else if (pile > 0) {
                mode = FILTER;
                size = pile;
                u64 t = plan.threshold[s];
                t = W::plus_delta(t > low ? t : low, delta);
                if (t <= low) t = low + 1;  // a delta below the key's precision: the next key (double bits)
                plan.threshold[s] = t;
            }
            plan.mode[s] = mode;
        }
        unsigned filtering = __ballot_sync(FULL_MASK, mode == FILTER);
        unsigned active = __ballot_sync(FULL_MASK, mode != IDLE);
        u64 at = size;  // inclusive prefix of the filtering piles' sizes
        for (int o = 1; o < WARP; o <<= 1) {
            u64 t = __shfl_up_sync(FULL_MASK, at, o);
            if (s >= o) at += t;
        }
        if (mode == FILTER) {
            int j = __popc(filtering & lanes_below());
            plan.filterSource[j] = s;
            plan.filterStart[j] = at - size;
        }
        if (s == WARP - 1) {
            int nf = __popc(filtering);
            plan.filterStart[nf] = at;
            plan.filters = nf;
            plan.active = active != 0;
        }
    }
    __syncthreads();
}

template <typename W>
__device__ void multi_sssp(const int* __restrict__ row, const int* __restrict__ col,
                           const typename W::type* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                           u64* dist, int* queueA, int* queueB, int* far, int* nearMark, int* farMark, u64* ctr,
                           u64 delta, int hasWide, int* wideItem, u64* wideOffset, const u64* seeds,
                           int seedStride) {
    cg::grid_group grid = cg::this_grid();
    __shared__ Plan plan;
    __shared__ int nearBuffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    __shared__ u64 seedStart[MAXK + 1];  // seeded: slice s's seeds start at seedStart[s] in the first near queue
    if (threadIdx.x < k) {
        if (seeds == nullptr) plan.source[threadIdx.x] = sources[threadIdx.x];
        plan.threshold[threadIdx.x] = delta;
        plan.epoch[threadIdx.x] = 0;
        plan.mode[threadIdx.x] = EXPAND;  // the first step expands every source (seeded: every slice with seeds)
    }
    if (seeds != nullptr && threadIdx.x == 0) {
        u64 at = 0;
        for (int s = 0; s < k; s++) {
            seedStart[s] = at;
            at += seeds[(long long)s * seedStride];
        }
        seedStart[k] = at;
    }
    __syncthreads();
    for (int s = 0; s < k; s++) {
        long long base = (long long)s * n;
        int src = seeds == nullptr ? plan.source[s] : -1;
        for (long long v = global_thread(); v < n; v += grid_threads()) {
            if (seeds == nullptr) dist[base + v] = v == src ? 0 : W::INF;
            nearMark[base + v] = -1;
            farMark[base + v] = -1;
        }
    }
    if (seeds == nullptr) {
        if (global_thread() < k) {
            int s = (int)global_thread();
            queueA[s] = s * n + plan.source[s];
        }
    } else {  // slice s's seeds, listed in far pile (s, 1), become items s n + v of the first near queue
        for (int s = 0; s < k; s++) {
            long long count = (long long)(seedStart[s + 1] - seedStart[s]);
            const int* list = far + (2LL * s + 1) * n;
            for (long long i = global_thread(); i < count; i += grid_threads()) {
                queueA[seedStart[s] + i] = s * n + ldcg(&list[i]);
            }
        }
    }
    if (global_thread() == 0) {
        for (int i = 0; i < MSSSP_STEPS; i++) ctr[i] = 0;  // MSSSP_STEPS.._ITEMS add up over launches
        u64 mask = 0;
        if (seeds == nullptr) {
            mask = k >= MAXK ? 0xFFFFFFFFull : (1ull << k) - 1;
        } else {
            for (int s = 0; s < k; s++) if (seedStart[s + 1] > seedStart[s]) mask |= 1ull << s;
        }
        // the first step reads slot (0 - 1) % 3: the k sources, or the seeds
        ctr[MSSSP_NEAR_COUNT + 2] = seeds == nullptr ? (u64)k : seedStart[k];
        ctr[MSSSP_NEAR_MASK + 2] = mask;
        for (int s = 0; s < k; s++) {
            for (int q = 0; q < 3; q++) {
                ctr[MSSSP_SOURCE_BASE + s * MSSSP_SOURCE_STRIDE + FAR_COUNT + q] = 0;
                ctr[MSSSP_SOURCE_BASE + s * MSSSP_SOURCE_STRIDE + FAR_MIN + q] = U64_MAX;
            }
        }
    }
    grid.sync();

    Multi<W> m{row, col, wt, n, k, dist, far, nearMark, farMark, ctr, &plan};
    int* cur = queueA;
    int* next = queueB;
    int it = 0;
    u64 items = 0, filters = 0;  // tallies of global thread 0
    while (true) {
        int last = (it + 2) % 3, slot = it % 3;
        u64 count = ldcg(&ctr[MSSSP_NEAR_COUNT + last]);
        make_plan(m, &ctr[MSSSP_NEAR_MASK + last], delta);
        if (!plan.active) break;  // the same in every block
        if (global_thread() == 0) {
            ctr[MSSSP_NEAR_COUNT + (it + 1) % 3] = 0;  // last read at the start of step it - 1
            ctr[MSSSP_NEAR_MASK + (it + 1) % 3] = 0;
            ctr[MSSSP_WIDE + ((it + 1) & 1)] = 0;      // last read before the previous step's final barrier
            for (int j = 0; j < plan.filters; j++) {
                int s = plan.filterSource[j], e = plan.epoch[s];
                *m.farCount(s, e + 2) = 0;  // the pile the last filter read
                *m.farMin(s, e + 2) = U64_MAX;
            }
            items += count;
            filters += (u64)plan.filters;
        }
        WarpQueue nearQueue(nearBuffer, next, &ctr[MSSSP_NEAR_COUNT + slot]);
        unsigned nearBits = 0;
        int nearTag = it + 1;
        u64* wideCtr = &ctr[MSSSP_WIDE + (it & 1)];
        if (count > 0) {
            expand_items<W>(m, cur, (long long)count, hasWide, wideItem, wideOffset, wideCtr, nearTag, nearQueue,
                            nearBits);
        }
        filter_piles<W>(m, nearTag, nearQueue, nearBits);
        if (count > 0 && hasWide) {
            grid.sync();  // the wide list is complete
            expand_wide<W>(m, wideItem, wideOffset, wideCtr, nearTag, nearQueue, nearBits);
        }
        nearQueue.finish();
        unsigned bits = __reduce_or_sync(FULL_MASK, nearBits);
        if (lane_id() == 0 && bits != 0) atomicOr(&ctr[MSSSP_NEAR_MASK + slot], (u64)bits);
        grid.sync();
        int* t = cur;
        cur = next;
        next = t;
        it++;
    }
    if (global_thread() == 0) {
        atomicAdd(&ctr[MSSSP_STEPS], (u64)it);
        atomicAdd(&ctr[MSSSP_FILTERS], filters);
        atomicAdd(&ctr[MSSSP_ITEMS], items);
    }
}

}  // namespace

extern "C" __global__ void sssp_multi_i32(const int* __restrict__ row, const int* __restrict__ col,
                                          const int* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                                          u64* dist, int* queueA, int* queueB, int* far, int* nearMark,
                                          int* farMark, u64* ctr, u64 delta, int hasWide, int* wideItem,
                                          u64* wideOffset) {
    multi_sssp<IntWeights>(row, col, wt, n, k, sources, dist, queueA, queueB, far, nearMark, farMark, ctr, delta,
                           hasWide, wideItem, wideOffset, nullptr, 0);
}

extern "C" __global__ void sssp_multi_f64(const int* __restrict__ row, const int* __restrict__ col,
                                          const double* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                                          u64* dist, int* queueA, int* queueB, int* far, int* nearMark,
                                          int* farMark, u64* ctr, u64 delta, int hasWide, int* wideItem,
                                          u64* wideOffset) {
    multi_sssp<DoubleWeights>(row, col, wt, n, k, sources, dist, queueA, queueB, far, nearMark, farMark, ctr, delta,
                              hasWide, wideItem, wideOffset, nullptr, 0);
}

// Seeded runs side by side (DeviceTrees' repair of several standing trees, the settle step that sssp_async.cu's seeded
// entry points run for one): slice s of dist already holds an upper bound for every vertex (a tree's keys after
// repair_prepare reset and pulled its invalidated part), far pile (s, 1) lists the vertices whose key was lowered, and
// seeds[s * seedStride] counts them (the tree's REPAIR_SEEDS counter). Those vertices form the first near queue; every
// vertex a relaxation lowers is expanded as in a run from a source, so each slice reaches the same least fixed point.
// `unit`: every arc counts 1 (BFS hops), the weights are not read (pass any int array of one entry per arc).
#define SEEDED(NAME, W)                                                                                                \
    extern "C" __global__ void NAME(const int* __restrict__ row, const int* __restrict__ col,                          \
                                    const typename W::type* __restrict__ wt, int n, int k, u64* dist, int* queueA,     \
                                    int* queueB, int* far, int* nearMark, int* farMark, u64* ctr, u64 delta,           \
                                    int hasWide, int* wideItem, u64* wideOffset, const u64* seeds, int seedStride) {   \
        multi_sssp<W>(row, col, wt, n, k, nullptr, dist, queueA, queueB, far, nearMark, farMark, ctr, delta, hasWide,  \
                      wideItem, wideOffset, seeds, seedStride);                                                        \
    }
SEEDED(sssp_multi_seeded_i32, IntWeights)
SEEDED(sssp_multi_seeded_f64, DoubleWeights)
SEEDED(sssp_multi_seeded_unit, UnitWeights)
#undef SEEDED

// The SUMMARY of each of k slices of n keys, one slice per blocksPerSource blocks (summarize_keys in
// sssp_keys.cuh): out[2 s], out[2 s + 1] for slice s. out[] is zeroed by the host.
extern "C" __global__ void sssp_multi_summary(const u64* __restrict__ dist, int n, int blocksPerSource, u64 inf,
                                              u64* out) {
    int s = blockIdx.x / blocksPerSource;
    int b = blockIdx.x - s * blocksPerSource;
    summarize_keys(dist + (long long)s * n, n, (long long)b * blockDim.x + threadIdx.x,
                   (long long)blocksPerSource * blockDim.x, inf, out + 2 * s);
}
