// Weakly connected components: ECL-CC (Jaiganesh and Burtscher, "A High-Performance Connected Components
// Implementation for GPUs", HPDC 2018), driven by GpuCc.java, then the SUMMARY and TARGETS reductions.
//
// nstat[v] is a parent pointer that only ever points to a smaller vertex id, so each tree's root is its smallest
// vertex and, once every component is one tree, the flattened labels are canonical: label[v] = the smallest vertex
// id of v's component (what CcReference gives).
//   cc_init       nstat[v] = v's first neighbour below v, else v (a first hook for free)
//   cc_compute1   one thread per vertex of degree <= 16; longer rows are put on the worklist: degree <= 352 from
//                 the front (counters[0] up), longer from the back (counters[1] down)
//   cc_compute2   one warp per vertex of the worklist's front part
//   cc_compute3   one block per vertex of its back part
//   cc_flatten    nstat[v] = its root
// Hooking links the larger of two roots under the smaller (atomicCAS on the larger root, retried with what it
// found), and every find halves the path it walks (intermediate pointer jumping). On a symmetric CSR (an undirected
// graph) each edge is hooked once, from its larger endpoint, and a vertex whose first hook found no smaller
// neighbour is skipped (every edge of it is seen from the other side); on a directed CSR every arc is hooked from its
// source (weak connectivity: an arc joins its endpoints whatever its direction), so no transpose is needed.
// The worklist counters live in a small device buffer of the launcher, not in __device__ globals, so lanes that run
// CC on several graphs at once do not share them.
#include "frontier.cuh"

using namespace frontier;

namespace {
constexpr int WARP_DEGREE = 16;    // rows longer than this go to the worklist
constexpr int BLOCK_DEGREE = 352;  // rows longer than this are expanded by a whole block

// The root of v's tree, halving the path on the way (the pointers only ever go down to smaller ids, so a racing
// write of another thread can only shorten the walk).
__device__ __forceinline__ int representative(int v, int* nstat) {
    int curr = nstat[v];
    if (curr != v) {
        int next, prev = v;
        while (curr > (next = nstat[curr])) {
            nstat[prev] = next;
            prev = curr;
            curr = next;
        }
    }
    return curr;
}

// Joins the trees of vstat and ostat (roots, or vertices on their way up): the larger root is linked under the
// smaller, retried with what the failed atomicCAS found until it holds. Returns the joined tree's root as this
// thread last saw it (the next hook of the same row starts there; a stale one only costs a retry).
__device__ __forceinline__ int hook(int vstat, int ostat, int* nstat) {
    while (vstat != ostat) {
        int ret;
        if (vstat < ostat) {
            if ((ret = atomicCAS(&nstat[ostat], ostat, vstat)) == ostat) return vstat;
            ostat = ret;
        } else {
            if ((ret = atomicCAS(&nstat[vstat], vstat, ostat)) == vstat) return ostat;
            vstat = ret;
        }
    }
    return vstat;
}

template <typename O>
__device__ __forceinline__ void init(const O* __restrict__ rows, const int* __restrict__ cols, int n, int* nstat,
                                     int* counters) {
    for (long long t = global_thread(); t < n; t += grid_threads()) {
        int v = (int)t;
        O end = rows[v + 1];
        int m = v;
        for (O i = rows[v]; m == v && i < end; i++) m = min(m, cols[i]);
        nstat[v] = m;
    }
    if (global_thread() == 0) {
        counters[0] = 0;
        counters[1] = n - 1;
    }
}

template <typename O>
__device__ __forceinline__ void compute1(const O* __restrict__ rows, const int* __restrict__ cols, int n,
                                         int symmetric, int* nstat, int* wl, int* counters) {
    for (long long t = global_thread(); t < n; t += grid_threads()) {
        int v = (int)t;
        if (symmetric && nstat[v] == v) continue;
        O beg = rows[v], end = rows[v + 1];
        int deg = (int)(end - beg);
        if (deg > WARP_DEGREE) {
            int at = deg <= BLOCK_DEGREE ? atomicAdd(&counters[0], 1) : atomicSub(&counters[1], 1);
            wl[at] = v;
            continue;
        }
        int vstat = representative(v, nstat);
        for (O i = beg; i < end; i++) {
            int u = cols[i];
            if (symmetric && u >= v) continue;
            vstat = hook(vstat, representative(u, nstat), nstat);
        }
    }
}

template <typename O>
__device__ __forceinline__ void compute2(const O* __restrict__ rows, const int* __restrict__ cols, int symmetric,
                                         int* nstat, const int* __restrict__ wl, const int* counters) {
    int count = counters[0];
    for (long long w = global_warp(); w < count; w += grid_warps()) {
        int v = wl[w];
        O end = rows[v + 1];
        int vstat = representative(v, nstat);
        for (O i = rows[v] + lane_id(); i < end; i += WARP) {
            int u = cols[i];
            if (symmetric && u >= v) continue;
            vstat = hook(vstat, representative(u, nstat), nstat);
        }
    }
}

template <typename O>
__device__ __forceinline__ void compute3(const O* __restrict__ rows, const int* __restrict__ cols, int n,
                                         int symmetric, int* nstat, const int* __restrict__ wl, const int* counters) {
    int first = counters[1] + 1;
    for (int at = first + blockIdx.x; at < n; at += gridDim.x) {
        int v = wl[at];
        O end = rows[v + 1];
        int vstat = representative(v, nstat);
        for (O i = rows[v] + threadIdx.x; i < end; i += blockDim.x) {
            int u = cols[i];
            if (symmetric && u >= v) continue;
            vstat = hook(vstat, representative(u, nstat), nstat);
        }
    }
}

}  // namespace

// The entry points, one of each per row-offset type: the plain names for int offsets, _o64 for a graph stored wide.
#define CC_ENTRIES(SUFFIX, O) \
    extern "C" __global__ void cc_init##SUFFIX(const O* __restrict__ rows, const int* __restrict__ cols, int n, \
                                               int* nstat, int* counters) { \
        init(rows, cols, n, nstat, counters); \
    } \
    extern "C" __global__ void cc_compute1##SUFFIX(const O* __restrict__ rows, const int* __restrict__ cols, int n, \
                                                   int symmetric, int* nstat, int* wl, int* counters) { \
        compute1(rows, cols, n, symmetric, nstat, wl, counters); \
    } \
    extern "C" __global__ void cc_compute2##SUFFIX(const O* __restrict__ rows, const int* __restrict__ cols, \
                                                   int symmetric, int* nstat, const int* __restrict__ wl, \
                                                   const int* counters) { \
        compute2(rows, cols, symmetric, nstat, wl, counters); \
    } \
    extern "C" __global__ void cc_compute3##SUFFIX(const O* __restrict__ rows, const int* __restrict__ cols, int n, \
                                                   int symmetric, int* nstat, const int* __restrict__ wl, \
                                                   const int* counters) { \
        compute3(rows, cols, n, symmetric, nstat, wl, counters); \
    }

CC_ENTRIES(, int)
CC_ENTRIES(_o64, long long)

extern "C" __global__ void cc_flatten(int n, int* nstat) {
    for (long long t = global_thread(); t < n; t += grid_threads()) {
        int v = (int)t;
        int old = nstat[v], root = old, next;
        while (root > (next = nstat[root])) root = next;
        if (root != old) nstat[v] = root;
    }
}

// Component sizes: sizes[label] += 1 per vertex (sizes zeroed by the host); lanes of a warp with the same label add
// once, so the giant component of a Kronecker graph costs one atomic per warp, not per vertex.
extern "C" __global__ void cc_sizes(const int* __restrict__ labels, int n, int* sizes) {
    for (long long t = global_thread(); t - lane_id() < n; t += grid_threads()) {
        bool live = t < n;
        int label = live ? labels[t] : -1 - lane_id();
        unsigned active = __ballot_sync(FULL_MASK, live);
        unsigned same = __match_any_sync(FULL_MASK, label);
        if (live && lane_id() == __ffs(same & active) - 1) atomicAdd(&sizes[label], __popc(same & active));
    }
}

// The SUMMARY: out[0] += components (vertices that are their own label), out[1] = max(largest component size).
extern "C" __global__ void cc_summary(const int* __restrict__ labels, const int* __restrict__ sizes, int n, u64* out) {
    u64 count = 0, largest = 0;
    for (long long t = global_thread(); t < n; t += grid_threads()) {
        if (labels[t] == (int)t) {
            count++;
            largest = max(largest, (u64)sizes[t]);
        }
    }
    for (int o = WARP / 2; o > 0; o >>= 1) {
        count += __shfl_down_sync(FULL_MASK, count, o);
        largest = max(largest, __shfl_down_sync(FULL_MASK, largest, o));
    }
    if (lane_id() == 0 && count > 0) {
        atomicAdd(&out[0], count);
        atomicMax(&out[1], largest);
    }
}
