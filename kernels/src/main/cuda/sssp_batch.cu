// Shortest paths from many sources, one thread block a source (issue 31, bursts of SUMMARY queries): each block
// claims the batch's next source, runs near-far delta-stepping for it alone (Davidson, Baxter, Garland, Owens,
// "Work-Efficient Parallel GPU Methods for Single-Source Shortest Paths", IPDPS 2014; sssp.cu runs it over the whole
// grid), reduces its distances to the source's SUMMARY, and claims the next, until the batch is done.
//
// Why a block a source. On a road graph a near-far step holds a few hundred vertices: far too little for the grid, so
// sssp.cu and sssp_multi.cu (32 sources side by side in one cooperative grid) pay a grid barrier (1-2 us) and a
// chain of L2 round trips per step with most of the device idle. A block holds a step's few hundred vertices in one
// or two passes of its 8 warps and meets at __syncthreads (tens of ns); the blocks are independent (no grid barrier,
// a plain launch), so the device runs as many sources at once as it holds slots, each at its own pace. What the
// layout of sssp_multi.cu could share between sources (a vertex's arcs read once for several) does not arise on road
// graphs: random sources reach a vertex at distinct times (the CPU engine's bit-parallel BFS found the same:
// docs/benchmarks.md), so each source keeps its own arrays, source-major, in the slot of the block that runs it.
//
// Keys are sssp_keys.cuh's: integer distances as u64 (sssp_batch_i32) or the bits of non-negative doubles
// (sssp_batch_f64), lowered with atomicMin of the correctly rounded dist[u] + w, so every source's distances are the
// least fixed point of dist[v] = min(dist[u] + w): bit for bit what Dijkstra computes. Every lowering puts its vertex
// in the next near queue (below the threshold) or in the far pile (at or above it), whose expansion or filter reads
// the key again; a pile vertex whose key lies below the previous threshold was expanded with that key already and is
// dropped (Davidson's rule).
//
// Slot b (the block's index) owns, at offset b times the size: n records of 16 bytes (the vertex's key, U64_MAX
// between sources: the block sets it back while it reduces the summary; its near mark and far mark, int tags), four
// int lists of n (near queue, next near queue, far piles of even and odd epochs) and clock[b]. Tags come from the
// slot's clock, which only counts up and outlives launches (a new tag each step and each epoch), so no mark is reset
// between sources; the block clears its marks when the clock nears 2^30. The host clears every record once
// (sssp_batch_clear) and zeroes the clocks.
// One step: expand the near queue (a warp takes up to 32 items, one a lane, and splits their concatenated arcs over
// its lanes, as sssp_multi.cu, U chunks of 32 arcs at once: their loads, then their atomics, then one reservation for
// their appends), or, when it is empty, raise the threshold to max(threshold, smallest pile key) + delta
// and filter the pile; then one __syncthreads. Counters of a queue and a pile live in shared memory, three near slots
// by step % 3 (read, written, cleared) and two pile slots by epoch % 2.
// Counters (u64 ctr[], slots named by BatchSsspCounter): BSSSP_NEXT, the next source to claim (the host zeroes it
// before a launch); BSSSP_STEPS, _FILTERS, _ITEMS add up over launches until the host clears them.
#include "frontier.cuh"
#include "sssp_keys.cuh"

// Counter slots (u64 ctr[]), mirrored by BatchSssp on the host
enum BatchSsspCounter : int {
    BSSSP_NEXT = 0,      // sources claimed so far (the host zeroes it before a launch)
    BSSSP_STEPS = 1,     // steps run, all sources, added up over launches (the host clears it)
    BSSSP_FILTERS = 2,   // far-pile filters run, likewise
    BSSSP_ITEMS = 3,     // near-queue items expanded, likewise
    BSSSP_COUNTERS = 4   // size of the array the host allocates
};

using namespace frontier;

namespace {

constexpr int CLOCK_LIMIT = 1 << 30;  // a slot clears its marks before its clock passes this
// 32-arc chunks a warp relaxes at once (H200, NY, 256 sources: 0.091 ms a source against 0.104 one chunk at a time)
constexpr int U = 4;

// What the block shares: the queue and pile sizes (u32: n < 2^31) and the piles' smallest keys.
struct Shared {
    unsigned near[3];  // by step % 3: read this step, written this step, cleared this step
    unsigned far[2];   // by epoch % 2
    u64 farMin[2];     // by epoch % 2
    int source;        // the batch position this block runs (-1: none left)
    u64 reached, largest;
};

// A slot's keys and marks: a 16-byte record a vertex (key, near mark, far mark), so that a relaxation's key and
// marks lie in one sector (H200, NY, 256 sources: 0.091 ms a source against 0.100 with keys and marks in three
// arrays).
template <typename W>
struct Batch {
    const int* __restrict__ row;
    const int* __restrict__ col;
    const typename W::type* __restrict__ wt;
    int n;
    u64* state;     // this slot's keys and marks
    int* lists;     // near queues (2), far piles (2), n ints each
    Shared* sh;
    __device__ __forceinline__ int* list(int q) const { return lists + (long long)q * n; }
    __device__ __forceinline__ u64* key(int v) const { return state + 2LL * v; }
    __device__ __forceinline__ int* nearMark(int v) const { return reinterpret_cast<int*>(state + 2LL * v) + 2; }
    __device__ __forceinline__ int* farMark(int v) const { return reinterpret_cast<int*>(state + 2LL * v) + 3; }
};

// Appends v[c] to out for each chunk c whose lane has take[c]: one shared atomicAdd per warp for all U chunks. All
// lanes call it together.
template <int U>
__device__ __forceinline__ void push(const bool (&take)[U], const int (&v)[U], int* out, unsigned* count) {
    unsigned takers[U];
    int total = 0;
#pragma unroll
    for (int c = 0; c < U; c++) {
        takers[c] = __ballot_sync(FULL_MASK, take[c]);
        total += __popc(takers[c]);
    }
    if (total == 0) return;
    unsigned base = 0;
    if (lane_id() == 0) base = atomicAdd(count, (unsigned)total);
    base = __shfl_sync(FULL_MASK, base, 0);
#pragma unroll
    for (int c = 0; c < U; c++) {
        if (take[c]) out[base + __popc(takers[c] & lanes_below())] = v[c];
        base += __popc(takers[c]);
    }
}

// The step's tags and where it writes, the same in every thread.
struct Step {
    u64 threshold;
    int nearTag;     // this step's mark of the next near queue
    int epochTag;    // the current epoch's mark of its far pile
    int epoch;       // filters done for this source
    int* next;       // the next near queue
    unsigned* nextCount;
};

// Expands cur[0, count): up to 32 items a warp, one a lane, spread evenly over the block's warps; the arcs of a warp's
// items concatenated and split over its lanes, U chunks of 32 arcs at once (their loads, then their atomics, then
// their appends: one round trip of each kind for U chunks). A lowered key goes to the next near queue (below the
// threshold) or to the epoch's far pile.
template <typename W>
__device__ __forceinline__ void expand(const Batch<W>& b, const Step& st, const int* cur, int count) {
    int warp = threadIdx.x / WARP;
    int per = (count + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    per = per < 1 ? 1 : (per > WARP ? WARP : per);
    int e = st.epoch & 1;
    for (int first = warp * per; first < count; first += WARPS_PER_BLOCK * per) {  // warp-uniform
        int i = first + lane_id();
        bool has = lane_id() < per && i < count;
        int start = 0, degree = 0;
        u64 du = 0;
        if (has) {
            int u = ldcg(&cur[i]);
            du = ldcg(b.key(u));
            start = __ldg(&b.row[u]);
            degree = __ldg(&b.row[u + 1]) - start;
        }
        int total = 0;
        int before = warp_exclusive(has ? degree : 0, total);
        for (int p0 = 0; p0 < total; p0 += WARP * U) {  // warp-uniform
            int v[U];
            u64 nd[U];
#pragma unroll
            for (int c = 0; c < U; c++) {
                int p = p0 + c * WARP + lane_id();
                int j = 0;  // the lane whose arcs hold position p: the last j with before_j <= p
                for (int s = WARP / 2; s > 0; s >>= 1) {
                    if (__shfl_sync(FULL_MASK, before, j + s) <= p) j += s;
                }
                int jstart = __shfl_sync(FULL_MASK, start, j);
                int jbefore = __shfl_sync(FULL_MASK, before, j);
                u64 jd = __shfl_sync(FULL_MASK, du, j);
                v[c] = -1;
                nd[c] = 0;
                if (p < total) {
                    int a = jstart + (p - jbefore);
                    v[c] = __ldg(&b.col[a]);
                    nd[c] = W::add(jd, __ldg(&b.wt[a]));
                }
            }
            bool lower[U];
#pragma unroll
            for (int c = 0; c < U; c++) lower[c] = v[c] >= 0 && nd[c] < ldcg(b.key(v[c]));
#pragma unroll
            for (int c = 0; c < U; c++) {
                if (lower[c]) lower[c] = nd[c] < atomicMin(b.key(v[c]), nd[c]);
            }
            bool toNear[U], toFar[U];
#pragma unroll
            for (int c = 0; c < U; c++) {
                toNear[c] = toFar[c] = false;
                if (lower[c]) {
                    if (nd[c] < st.threshold) {
                        toNear[c] = atomicExch(b.nearMark(v[c]), st.nearTag) != st.nearTag;
                    } else {
                        u64* low = &b.sh->farMin[e];
                        if (nd[c] < *(volatile u64*)low) atomicMin(low, nd[c]);
                        toFar[c] = atomicExch(b.farMark(v[c]), st.epochTag) != st.epochTag;
                    }
                }
            }
            push<U>(toNear, v, st.next, st.nextCount);
            push<U>(toFar, v, b.list(2 + e), &b.sh->far[e]);
        }
    }
}

// Splits pile[0, count) by the new threshold: keys below the old one were expanded already (dropped), keys below
// the new one go to the next near queue, the others to the other pile, marked with the next epoch's tag.
template <typename W>
__device__ __forceinline__ void filter(const Batch<W>& b, const Step& st, u64 oldThreshold, int nextEpochTag,
                                       const int* pile, int count) {
    int e1 = (st.epoch + 1) & 1;
    int limit = (count + blockDim.x - 1) / blockDim.x * blockDim.x;  // the same trip count on every lane
    for (int i = threadIdx.x; i < limit; i += blockDim.x) {
        bool toNear = false, keep = false;
        int v = 0;
        if (i < count) {
            v = ldcg(&pile[i]);
            u64 d = ldcg(b.key(v));
            if (d >= oldThreshold) {
                if (d < st.threshold) {
                    toNear = true;  // each vertex is once in a pile: no mark needed
                } else {
                    keep = true;
                    *b.farMark(v) = nextEpochTag;
                    u64* low = &b.sh->farMin[e1];
                    if (d < *(volatile u64*)low) atomicMin(low, d);
                }
            }
        }
        bool near1[1] = {toNear}, keep1[1] = {keep};
        int v1[1] = {v};
        push<1>(near1, v1, st.next, st.nextCount);
        push<1>(keep1, v1, b.list(2 + e1), &b.sh->far[e1]);
    }
}

// Runs near-far from src in the block's slot; returns after its last step (every thread).
template <typename W>
__device__ __forceinline__ void solve(const Batch<W>& b, int src, u64 delta, int& clock, u64& steps,
                                      u64& filters, u64& items) {
    Shared* sh = b.sh;
    Step st;
    st.threshold = delta;
    st.epoch = 0;
    st.epochTag = ++clock;
    if (threadIdx.x == 0) {
        sh->near[0] = 1;
        sh->near[1] = 0;
        sh->near[2] = 0;
        sh->far[0] = sh->far[1] = 0;
        sh->farMin[0] = sh->farMin[1] = U64_MAX;
        *b.key(src) = 0;
        b.list(0)[0] = src;
    }
    __syncthreads();
    for (int it = 0;; it++) {
        int count = (int)*(volatile unsigned*)&sh->near[it % 3];
        int* cur = b.list(it & 1);
        st.next = b.list((it + 1) & 1);
        st.nextCount = &sh->near[(it + 1) % 3];
        st.nearTag = ++clock;
        if (count == 0) {
            int e = st.epoch & 1;
            int pile = (int)*(volatile unsigned*)&sh->far[e];
            if (pile == 0) break;  // the same in every thread
            u64 low = *(volatile u64*)&sh->farMin[e];
            __syncthreads();  // every thread has read pile e's counters: clear them (kept vertices go to the other)
            if (threadIdx.x == 0) {
                sh->near[(it + 2) % 3] = 0;  // read last step by every thread, written next step
                sh->far[e] = 0;
                sh->farMin[e] = U64_MAX;
            }
            u64 old = st.threshold;
            u64 t = W::plus_delta(old > low ? old : low, delta);
            if (t <= low) t = low + 1;  // a delta below the key's precision: the next key (double bits)
            st.threshold = t;
            int nextEpochTag = ++clock;
            filter<W>(b, st, old, nextEpochTag, b.list(2 + e), pile);
            st.epoch++;
            st.epochTag = nextEpochTag;
            filters++;
        } else {
            if (threadIdx.x == 0) sh->near[(it + 2) % 3] = 0;
            expand<W>(b, st, cur, count);
            items += (u64)count;
        }
        steps++;
        __syncthreads();
    }
}

// The block's source's SUMMARY (reached vertices, largest key) into out[0], out[1]; every key set back to U64_MAX.
template <typename W>
__device__ __forceinline__ void summarize(const Batch<W>& b, u64* out) {
    Shared* sh = b.sh;
    if (threadIdx.x == 0) {
        sh->reached = 0;
        sh->largest = 0;
    }
    __syncthreads();
    u64 reached = 0, best = 0;
    for (int v = threadIdx.x; v < b.n; v += blockDim.x) {
        u64 k = ldcg(b.key(v));
        if (k != U64_MAX) {
            *b.key(v) = U64_MAX;
            if (k < W::INF) {
                reached++;
                best = max(best, k);
            }
        }
    }
    for (int o = WARP / 2; o > 0; o >>= 1) {
        reached += __shfl_down_sync(FULL_MASK, reached, o);
        best = max(best, __shfl_down_sync(FULL_MASK, best, o));
    }
    if (lane_id() == 0 && reached > 0) {
        atomicAdd(&sh->reached, reached);
        atomicMax(&sh->largest, best);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = sh->reached;
        out[1] = sh->largest;
    }
}

template <typename W>
__device__ void batch_sssp(const int* __restrict__ row, const int* __restrict__ col,
                           const typename W::type* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                           u64* state, int* lists, int* clocks, u64* ctr, u64 delta, u64* out) {
    __shared__ Shared sh;
    long long slot = blockIdx.x;
    Batch<W> b;
    b.row = row;
    b.col = col;
    b.wt = wt;
    b.n = n;
    b.state = state + 2 * slot * n;
    b.lists = lists + 4 * slot * n;
    b.sh = &sh;
    int clock = clocks[slot];  // the same in every thread, as every tag after it
    u64 steps = 0, filters = 0, items = 0;
    while (true) {
        if (threadIdx.x == 0) {
            unsigned long long j = atomicAdd(&ctr[BSSSP_NEXT], 1ull);
            sh.source = j < (unsigned long long)k ? (int)j : -1;
        }
        __syncthreads();
        int j = sh.source;
        if (j < 0) break;
        if (clock > CLOCK_LIMIT) {  // the tags would wrap: clear the marks, count again from 0
            for (int v = threadIdx.x; v < n; v += blockDim.x) *b.nearMark(v) = *b.farMark(v) = 0;
            clock = 0;
            __syncthreads();
        }
        solve<W>(b, sources[j], delta, clock, steps, filters, items);
        summarize<W>(b, out + 2LL * j);
    }
    if (threadIdx.x == 0) {
        clocks[slot] = clock;
        atomicAdd(&ctr[BSSSP_STEPS], steps);
        atomicAdd(&ctr[BSSSP_FILTERS], filters);
        atomicAdd(&ctr[BSSSP_ITEMS], items);
    }
}

}  // namespace

extern "C" __global__ void sssp_batch_i32(const int* __restrict__ row, const int* __restrict__ col,
                                          const int* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                                          u64* state, int* lists, int* clocks, u64* ctr, u64 delta, u64* out) {
    batch_sssp<IntWeights>(row, col, wt, n, k, sources, state, lists, clocks, ctr, delta, out);
}

extern "C" __global__ void sssp_batch_f64(const int* __restrict__ row, const int* __restrict__ col,
                                          const double* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                                          u64* state, int* lists, int* clocks, u64* ctr, u64 delta, u64* out) {
    batch_sssp<DoubleWeights>(row, col, wt, n, k, sources, state, lists, clocks, ctr, delta, out);
}

// BFS SUMMARY bursts: every arc counts 1 (UnitWeights, keys are hop counts), so a source's largest key is its
// deepest level; wt is the graph's weight array, never read.
extern "C" __global__ void sssp_batch_unit(const int* __restrict__ row, const int* __restrict__ col,
                                           const int* __restrict__ wt, int n, int k, const int* __restrict__ sources,
                                           u64* state, int* lists, int* clocks, u64* ctr, u64 delta, u64* out) {
    batch_sssp<UnitWeights>(row, col, wt, n, k, sources, state, lists, clocks, ctr, delta, out);
}

// Sets every record's key to U64_MAX (unreached) and its marks to 0: the state of `records` vertices (2 u64 each).
extern "C" __global__ void sssp_batch_clear(u64* state, long long records) {
    for (long long x = global_thread(); x < 2 * records; x += grid_threads()) state[x] = (x & 1) == 0 ? U64_MAX : 0;
}
