// Single-source shortest paths: near-far delta-stepping (Davidson, Baxter, Garland, Owens, "Work-Efficient
// Parallel GPU Methods for Single-Source Shortest Paths", IPDPS 2014) in one cooperative launch.
//
// Distances are 64-bit keys ordered like the distances themselves, so atomicMin on the key is a relax:
// - integer weights (sssp_*_i32): the key is the exact integer distance (int32 weights, sums below 2^62);
// - other weights (sssp_*_f64): the key is the bit pattern of a non-negative double, which orders like the
//   double; relaxing computes the same correctly rounded dist[u] + w as the CPU engine.
// Both compute the least fixed point of dist[v] = min(dist[u] + w), the value Dijkstra computes, bit for bit.
//
// Near queue: vertices improved below the threshold, expanded next iteration by frontier.cuh's advance
// (LoadBalance::WARP_EDGE, the functor Relax): one warp per vertex; vertices of degree >= BLOCK_EXPAND_DEGREE
// ("big") are listed with their arc offsets (bigList: bigCap vertices, then bigCap offsets) and, after a grid
// barrier, their arcs are split evenly over all warps (edge-balanced, so a hub no longer sets the length of an
// iteration). Far pile: vertices improved at or above it. When the near queue empties, the threshold becomes
// max(threshold, smallest far key) + delta and the far pile is split into the next near queue and a new far pile.
// nearMark/farMark keep each vertex at most once in each.
//
// Three far piles rotate (pile epoch % 3 is current, epoch = filters done): a filter reads the current pile, writes
// the kept vertices to the next one and clears the one after, which nobody reads or writes until the next filter.
// Counters (u64 ctr[], slots named by SsspCounter below): ctr[SSSP_NEAR_COUNT + s], s = iteration % 3: size of the
// near queue built by that iteration (zeroed one iteration ahead); ctr[SSSP_FAR_COUNT + q]: size of far pile q;
// ctr[SSSP_FAR_MIN + q]: smallest key pushed to far pile q; ctr[SSSP_ITERATIONS]: iterations run;
// ctr[SSSP_FILTERS]: filters run; ctr[SSSP_BIG + iteration % 2]: (big vertices << 40) | their arcs (BigList.ctr).
//
// Work in proportion to what is reached: every vertex a search reaches is listed once in reached[] (the source,
// then each vertex whose atomicMin found INF), ctr[SSSP_REACHED] of them; at its end the search leaves that count in
// ctr[SSSP_CLEAR], and the next search resets dist, the marks and parent[] of exactly those vertices (all n when
// the host says `fresh`: a launcher's first search, or after anything else wrote these arrays). So between searches
// dist holds the last answer and INF elsewhere, parent[] -1 outside the last search's reached vertices, and the
// parents pass and the SUMMARY (sssp_parents_listed_*, sssp_summary_listed) read the reached list, not n entries.
//
// Small reach: when the source has at most `small` arcs, block 0 alone relaxes from it in rounds (one block barrier a
// round, the rest of the grid waiting at one grid barrier): each round expands the vertices the last one improved
// (at most SMALL_VERTICES of them, `small` arcs, laid end to end over the block's threads), in no bucket order, so
// that a search that reaches few vertices over many steps (a chain, a web graph's tail) pays no grid barrier a step.
// Every improved vertex is expanded in the next round with its distance then, so the rounds keep near-far's
// argument; when a round's improved vertices outgrow the limits they become the grid's first near queue (its marks
// are the rounds' negative tags, never an iteration's), and near-far goes on from there.
//
// Every kernel is a template on the row offsets' type O (frontier.cuh): the plain entry points for int offsets, the
// same names with _o64 for a graph stored wide (long long offsets; bigList then holds bigCap ints and, from int
// bigCap on, which the host keeps even, bigCap long long offsets).
#include "frontier.cuh"
#include "sssp_keys.cuh"

// Counter slots (u64 ctr[]), mirrored by SsspCounters on the host
enum SsspCounter : int {
    SSSP_NEAR_COUNT = 0,   // 3 slots, iteration % 3: size of the near queue the iteration builds
    SSSP_FAR_COUNT = 3,    // 3 slots, one per far pile: its size
    SSSP_FAR_MIN = 6,      // 3 slots, one per far pile: smallest key pushed to it (U64_MAX when none)
    SSSP_ITERATIONS = 9,   // iterations run (near-queue expansions and far-pile splits)
    SSSP_FILTERS = 10,     // far-pile splits (filters) run
    SSSP_BIG = 11,         // 2 slots, iteration % 2: (big vertices listed << 40) | their arcs
    SSSP_REACHED = 13,     // vertices this search reached: the length of reached[]
    SSSP_CLEAR = 14,       // the last search's SSSP_REACHED: what the next one resets (kept across launches)
    SSSP_AT = 15,          // block 0's hand-over: (vertices left to expand << 1) | 1 when they are in queueB
    SSSP_COUNTERS = 16     // size of the array the host allocates
};

using namespace frontier;

namespace {

// IntWeights, DoubleWeights: sssp_keys.cuh

constexpr int SMALL_VERTICES = BLOCK_THREADS;

// Block 0's rounds from the source (queueA[0]; see the header): the vertices a round improved go to the other queue
// (once a round: nearMark takes the round's tag, -2, -3, ...), each newly reached one to reached[]. Stops when a round
// improved none or more than the limits allow, and leaves them in ctr[SSSP_AT] (thread 0; the caller's grid barrier
// publishes it).
template <typename W, typename O>
__device__ void small_rounds(const O* __restrict__ row, const int* __restrict__ col,
                             const typename W::type* __restrict__ wt, u64* dist, int* nearMark, int* queueA,
                             int* queueB, int* reached, u64* ctr, int source, u64 small) {
    __shared__ int vertex[SMALL_VERTICES];
    __shared__ O first[SMALL_VERTICES];
    __shared__ int before[SMALL_VERTICES];
    __shared__ u64 key[SMALL_VERTICES];
    __shared__ int nextCount;
    __shared__ unsigned long long nextArcs;
    const int t = threadIdx.x;
    int* cur = queueA;
    int* next = queueB;
    int count = 1, tag = -2;
    u64 arcs = (u64)(__ldg(&row[source + 1]) - __ldg(&row[source]));
    while (true) {
        int d = 0;
        if (t < count) {
            int u = ldcg(&cur[t]);
            O rs = __ldg(&row[u]);
            d = (int)(__ldg(&row[u + 1]) - rs);
            vertex[t] = u;
            first[t] = rs;
            key[t] = ldcg(&dist[u]);  // after every lowering of the last round (the block barriers since)
        }
        int upTo = block_scan(d);
        if (t < count) before[t] = upTo - d;
        if (t == 0) {
            nextCount = 0;
            nextArcs = 0;
        }
        __syncthreads();
        for (int a = t; a < (int)arcs; a += blockDim.x) {
            int lo = 0, hi = count - 1;  // the owner: the last vertex whose arcs start at or before a
            while (lo < hi) {
                int mid = (lo + hi + 1) >> 1;
                if (before[mid] <= a) lo = mid;
                else hi = mid - 1;
            }
            O k = first[lo] + (a - before[lo]);
            int v = __ldg(&col[k]);
            u64 nd = W::add(key[lo], __ldg(&wt[k]));
            if (nd < ldcg(&dist[v])) {
                u64 old = atomicMin(&dist[v], nd);
                if (nd < old) {
                    if (old == W::INF) reached[atomicAdd(&ctr[SSSP_REACHED], 1ull)] = v;
                    if (atomicExch(&nearMark[v], tag) != tag) {
                        next[atomicAdd(&nextCount, 1)] = v;
                        atomicAdd(&nextArcs, (unsigned long long)(__ldg(&row[v + 1]) - __ldg(&row[v])));
                    }
                }
            }
        }
        __syncthreads();
        count = nextCount;  // (reset by thread 0 only after the next round's scan barriers)
        arcs = nextArcs;
        int* x = cur;
        cur = next;
        next = x;
        tag--;
        if (count == 0 || count > SMALL_VERTICES || arcs > small) break;
    }
    if (t == 0) ctr[SSSP_AT] = ((u64)count << 1) | (cur == queueB ? 1u : 0u);
}

// Relaxes arc (u, v) to key nd: returns whether v goes to the near queue (toNear) or the far pile (toFar).
template <typename W>
__device__ __forceinline__ void relax_arc(int v, u64 nd, u64 threshold, u64* dist, int* nearMark, int* farMark,
                                          int nearTag, int farTag, u64* farMin, bool& toNear, bool& toFar,
                                          bool& first) {
    if (nd < ldcg(&dist[v])) {
        u64 old = atomicMin(&dist[v], nd);
        if (nd < old) {
            first = old == W::INF;  // reached now: listed once
            if (nd < threshold) {
                toNear = atomicExch(&nearMark[v], nearTag) != nearTag;
            } else {
                if (nd < ldcg(farMin)) atomicMin(farMin, nd);
                toFar = atomicExch(&farMark[v], farTag) != farTag;
            }
        }
    }
}

// Near-far visit of arc (u, v) of weight wt[k]: relaxes dist[v] to dist[u] + w and appends v to the near queue or
// the far pile (each at most once per iteration / epoch, through nearMark / farMark).
template <typename W, typename O>
struct Relax {
    typedef u64 Source;  // dist[u], loaded once per tail
    const typename W::type* __restrict__ wt;
    u64* dist;
    u64 threshold;
    int* nearMark;
    int* farMark;
    int nearTag;
    int farTag;
    u64* farMin;
    WarpQueue nearQueue;
    WarpQueue farQueue;
    WarpQueue reachedQueue;

    __device__ __forceinline__ u64 source(int u) const { return ldcg(&dist[u]); }

    __device__ __forceinline__ void operator()(bool valid, int, const u64& du, int v, O k) {
        bool toNear = false, toFar = false, first = false;
        if (valid) {
            relax_arc<W>(v, W::add(du, __ldg(&wt[k])), threshold, dist, nearMark, farMark, nearTag, farTag, farMin,
                         toNear, toFar, first);
        }
        nearQueue.push(toNear, v);
        farQueue.push(toFar, v);
        reachedQueue.push(first, v);
    }
};

// Expands the near queue cur[0, cnt): one warp per vertex, edge-balanced over all warps for the big ones (listed in
// bigV / bigOff through *bigCtr; a grid barrier when hasBig).
template <typename W, typename O>
__device__ __forceinline__ void expand(const O* __restrict__ row, const int* __restrict__ col,
                                       const typename W::type* __restrict__ wt, u64* dist, const int* cur, int cnt,
                                       u64 threshold, int* nearMark, int* farMark, int nearTag, int farTag,
                                       int* nextNear, u64* nearCount, int* far, u64* farCount, u64* farMin,
                                       int* reached, u64* reachedCount, int hasBig, int* bigV, O* bigOff,
                                       u64* bigCtr) {
    __shared__ int nearBuffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    __shared__ int farBuffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    __shared__ int reachedBuffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
    Relax<W, O> relax{wt, dist, threshold, nearMark, farMark, nearTag, farTag, farMin,
                   WarpQueue(nearBuffer, nextNear, nearCount), WarpQueue(farBuffer, far, farCount),
                   WarpQueue(reachedBuffer, reached, reachedCount)};
    advance<LoadBalance::WARP_EDGE>(row, col, cur, cnt, relax, hasBig, BigListOf<O>{bigV, bigOff, bigCtr});
    relax.nearQueue.finish();
    relax.farQueue.finish();
    relax.reachedQueue.finish();
}

template <typename W, typename O>
__device__ void nearfar(const O* __restrict__ row, const int* __restrict__ col,
                        const typename W::type* __restrict__ wt, int n, u64* dist, int* queueA, int* queueB,
                        int* far, int* nearMark, int* farMark, u64* ctr, int source, u64 delta, int hasBig,
                        int* bigList, int bigCap, int* parent, int* reached, int fresh, long long small) {
    cg::grid_group grid = cg::this_grid();
    // reset what the last search reached (all n when fresh); the source may be among them: its thread writes 0 too
    const long long clear = fresh ? n : (long long)ldcg(&ctr[SSSP_CLEAR]);
    for (long long i = global_thread(); i < clear; i += grid_threads()) {
        int v = fresh ? (int)i : ldcg(&reached[i]);
        dist[v] = v == source ? 0 : W::INF;
        nearMark[v] = -1;
        farMark[v] = -1;
        parent[v] = -1;
    }
    if (global_thread() == 0) {
        dist[source] = 0;
        queueA[0] = source;
        for (int i = 0; i < SSSP_COUNTERS; i++)
            if (i != SSSP_CLEAR) ctr[i] = 0;  // SSSP_CLEAR: read above by every thread
        for (int q = 0; q < 3; q++) ctr[SSSP_FAR_MIN + q] = U64_MAX;
        ctr[SSSP_REACHED] = 1;  // the source, listed below (reached[] is read above)
    }
    grid.sync();
    if (global_thread() == 0) reached[0] = source;

    int* cur = queueA;
    int* next = queueB;
    u64 count = 1;
    if (small > 0 && (u64)(__ldg(&row[source + 1]) - __ldg(&row[source])) <= (u64)small) {  // the same for all
        if (blockIdx.x == 0) {
            small_rounds<W, O>(row, col, wt, dist, nearMark, queueA, queueB, reached, ctr, source, (u64)small);
        }
        grid.sync();
        u64 at = ldcg(&ctr[SSSP_AT]);
        count = at >> 1;
        if (at & 1) {
            cur = queueB;
            next = queueA;
        }
    }
    u64 threshold = delta;
    int epoch = 0;
    int it = 0;
    while (true) {
        int s = it % 3;
        int p = epoch % 3, pk = (epoch + 1) % 3, pz = (epoch + 2) % 3;
        if (global_thread() == 0) {
            ctr[SSSP_NEAR_COUNT + (it + 1) % 3] = 0;
            ctr[SSSP_BIG + ((it + 1) & 1)] = 0;  // last read before the previous iteration's final barrier
        }
        if (count > 0) {
            expand<W, O>(row, col, wt, dist, cur, (int)count, threshold, nearMark, farMark, it + 1, epoch, next,
                      &ctr[SSSP_NEAR_COUNT + s], far + (long long)p * n, &ctr[SSSP_FAR_COUNT + p],
                      &ctr[SSSP_FAR_MIN + p], reached, &ctr[SSSP_REACHED], hasBig, bigList,
                      reinterpret_cast<O*>(bigList + bigCap),
                      &ctr[SSSP_BIG + (it & 1)]);
        } else {
            u64 farCount = ldcg(&ctr[SSSP_FAR_COUNT + p]);
            if (farCount == 0) break;
            u64 farMin = ldcg(&ctr[SSSP_FAR_MIN + p]);
            if (global_thread() == 0) {
                ctr[SSSP_FAR_COUNT + pz] = 0;
                ctr[SSSP_FAR_MIN + pz] = U64_MAX;
            }
            threshold = W::plus_delta(threshold > farMin ? threshold : farMin, delta);
            const int* pile = far + (long long)p * n;
            int* kept = far + (long long)pk * n;
            __shared__ int nearBuffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
            __shared__ int keptBuffer[WARPS_PER_BLOCK][WARP_QUEUE_CAPACITY];
            WarpQueue nearQueue(nearBuffer, next, &ctr[SSSP_NEAR_COUNT + s]);
            WarpQueue keptQueue(keptBuffer, kept, &ctr[SSSP_FAR_COUNT + pk]);
            long long stride = grid_threads();
            long long limit = ((long long)farCount + stride - 1) / stride * stride;
            for (long long i = global_thread(); i < limit; i += stride) {
                bool toNear = false, keep = false;
                int v = -1;
                if (i < (long long)farCount) {
                    v = ldcg(&pile[i]);
                    u64 d = ldcg(&dist[v]);
                    if (d < threshold) {
                        toNear = atomicExch(&nearMark[v], it + 1) != it + 1;
                    } else {
                        keep = true;
                        farMark[v] = epoch + 1;
                        if (d < ldcg(&ctr[SSSP_FAR_MIN + pk])) atomicMin(&ctr[SSSP_FAR_MIN + pk], d);
                    }
                }
                nearQueue.push(toNear, v);
                keptQueue.push(keep, v);
            }
            nearQueue.finish();
            keptQueue.finish();
            epoch++;
        }
        grid.sync();
        count = ldcg(&ctr[SSSP_NEAR_COUNT + s]);
        int* t = cur;
        cur = next;
        next = t;
        it++;
    }
    if (global_thread() == 0) {
        ctr[SSSP_ITERATIONS] = (u64)it;
        ctr[SSSP_FILTERS] = (u64)epoch;
        ctr[SSSP_CLEAR] = ldcg(&ctr[SSSP_REACHED]);  // final: the loop ended at a grid barrier
    }
}

// The parents pass over the reached vertices only, reached[0, *count) (this file's list or sssp_async.cu's), one warp
// per vertex: parent[v] = some u with dist[u] + w(u, v) == dist[v] (the source's own entry is left; the host sets
// it). parent[] is -1 outside them already (the search reset the last search's). Valid as a shortest-path tree when
// every weight is positive (the host handles zero weights).
template <typename W, typename O>
__device__ void parents_listed(const O* __restrict__ row, const int* __restrict__ col,
                               const typename W::type* __restrict__ wt, const u64* __restrict__ dist, int* parent,
                               const int* __restrict__ reached, const u64* count, int source) {
    const long long m = (long long)*count;
    for (long long i = global_warp(); i < m; i += grid_warps()) {
        int u = reached[i];
        u64 du = dist[u];
        O s = __ldg(&row[u]), e = __ldg(&row[u + 1]);
        for (O k = s + lane_id(); k < e; k += WARP) {
            int v = __ldg(&col[k]);
            if (v != source && W::add(du, __ldg(&wt[k])) == dist[v]) parent[v] = u;
        }
    }
}

}  // namespace

// The entry points: NEARFAR(name, row type, weight type, weights) and PARENTS(...) stamp one of each per offset type
// and weight form (3 blocks a multiprocessor for near-far: 80 registers with int offsets, as before block 0's
// rounds, which alone would take 94).
#define NEARFAR(NAME, O, T, W) \
    extern "C" __global__ void __launch_bounds__(BLOCK_THREADS, 3) \
    NAME(const O* __restrict__ row, const int* __restrict__ col, const T* __restrict__ wt, int n, u64* dist, \
         int* queueA, int* queueB, int* far, int* nearMark, int* farMark, u64* ctr, int source, u64 delta, \
         int hasBig, int* bigList, int bigCap, int* parent, int* reached, int fresh, long long small) { \
        nearfar<W, O>(row, col, wt, n, dist, queueA, queueB, far, nearMark, farMark, ctr, source, delta, hasBig, \
                      bigList, bigCap, parent, reached, fresh, small); \
    }
#define PARENTS(NAME, O, T, W) \
    extern "C" __global__ void NAME(const O* __restrict__ row, const int* __restrict__ col, \
                                    const T* __restrict__ wt, const u64* __restrict__ dist, int* parent, \
                                    const int* __restrict__ reached, const u64* count, int source) { \
        parents_listed<W, O>(row, col, wt, dist, parent, reached, count, source); \
    }

NEARFAR(sssp_nearfar_i32, int, int, IntWeights)
NEARFAR(sssp_nearfar_f64, int, double, DoubleWeights)
NEARFAR(sssp_nearfar_i32_o64, long long, int, IntWeights)
NEARFAR(sssp_nearfar_f64_o64, long long, double, DoubleWeights)
PARENTS(sssp_parents_listed_i32, int, int, IntWeights)
PARENTS(sssp_parents_listed_f64, int, double, DoubleWeights)
PARENTS(sssp_parents_listed_i32_o64, long long, int, IntWeights)
PARENTS(sssp_parents_listed_f64_o64, long long, double, DoubleWeights)

// The SUMMARY of the last search's distances from its reached vertices only (summarize_keys in sssp_keys.cuh reads
// n keys instead): out[0] += *count (every listed vertex is reached, each listed once), out[1] = max(out[1], their
// largest key). out[] is zeroed by the host.
extern "C" __global__ void sssp_summary_listed(const u64* __restrict__ dist, const int* __restrict__ reached,
                                               const u64* count, u64* out) {
    const long long m = (long long)*count;
    u64 best = 0;
    for (long long i = global_thread(); i < m; i += grid_threads()) best = max(best, dist[reached[i]]);
    for (int o = WARP / 2; o > 0; o >>= 1) best = max(best, __shfl_down_sync(FULL_MASK, best, o));
    if (global_thread() == 0) atomicAdd(&out[0], (u64)m);
    if (lane_id() == 0 && best > 0) atomicMax(&out[1], best);
}
