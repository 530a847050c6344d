// Minimum spanning forest: Boruvka over an edge work list with a lock-free union-find, after ECL-MST
// (Fallin, Gonzalez, Seo, Burtscher, "A High-Performance MST Implementation for GPUs", SC 2023).
//
// Each undirected edge is an int4 (u, v, weight key, edge id); its 64-bit key is (weight key << 32) | edge id,
// where the weight key is the integer weight, or the weight's rank among the distinct weights, so keys are
// unique and order edges by (weight, edge id): the forest is the unique one the CPU engine finds.
// A round: (A) replace each edge's ends by their roots, drop edges inside one component, compact the rest and
// reset the minima (round 0 skips (A): every vertex is a root, the input list is read as it is); (B) atomicMin
// each surviving key into both roots; (C) an edge that is the minimum
// of either root joins the forest (a bit per edge id) and its roots are united (the larger root hooks under the
// smaller with atomicCAS, so no cycle can form). All rounds run in one cooperative launch.
//
// Counters (u64 ctr[], slots named by MstCounter below): ctr[MST_LIST_COUNT + r % 2] size of the list built in
// round r (zeroed a round ahead); ctr[MST_ROUNDS] rounds run.
#include "frontier.cuh"

// Counter slots (u64 ctr[]), mirrored by MstCounters on the host
enum MstCounter : int {
    MST_LIST_COUNT = 0,   // 2 slots, round % 2: size of the edge list the round builds
    MST_ROUNDS = 2,       // Boruvka rounds run
    MST_COUNTERS = 16     // size of the array the host allocates
};

using namespace frontier;

namespace {

__device__ __forceinline__ u64 key_of(int4 e) { return ((u64)(unsigned)e.z << 32) | (unsigned)e.w; }

// Root of x, halving the path on the way (every write points a non-root at one of its ancestors).
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

}  // namespace

extern "C" __global__ void mst_boruvka(const int4* __restrict__ edges, long long m, int n, int4* listA,
                                       int4* listB, int* comp, u64* minKey, unsigned* chosen, u64* ctr) {
    cg::grid_group grid = cg::this_grid();
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        comp[v] = (int)v;
        minKey[v] = U64_MAX;
    }
    for (long long i = global_thread(); i < (m + 31) / 32; i += grid_threads()) chosen[i] = 0;
    if (global_thread() == 0) {
        for (int i = 0; i < MST_COUNTERS; i++) ctr[i] = 0;
    }
    grid.sync();

    const int4* cur = edges;
    long long count = m;
    int4* out = listA;
    int round = 0;
    long long stride = grid_threads();
    while (count > 0) {
        int s = round % 2;
        if (global_thread() == 0) ctr[MST_LIST_COUNT + (s ^ 1)] = 0;  // read by everyone before the last barrier
        const int4* list;
        long long kept;
        if (round == 0) {
            // Every vertex is its own root and every minimum is reset: (A) would keep every edge but self-loops
            // (skipped below), so round 0 reads the input list directly instead of copying it.
            list = edges;
            kept = m;
        } else {
            // (A) roots, filter, compact; the minima of all vertices are reset (one dense sweep instead of a
            // scattered store per surviving edge end)
            for (long long v = global_thread(); v < n; v += stride) minKey[v] = U64_MAX;
            long long limit = (count + stride - 1) / stride * stride;
            for (long long i = global_thread(); i < limit; i += stride) {
                bool keep = false;
                int4 e;
                if (i < count) {
                    e = cur[i];
                    int ru = find(comp, e.x), rv = find(comp, e.y);
                    if (ru != rv) {
                        keep = true;
                        e.x = ru;
                        e.y = rv;
                    }
                }
                block_push(keep, e, out, &ctr[MST_LIST_COUNT + s]);
            }
            grid.sync();
            kept = (long long)ldcg(&ctr[MST_LIST_COUNT + s]);
            if (kept == 0) break;
            list = out;
        }
        // (B) minimum key per root
        for (long long i = global_thread(); i < kept; i += stride) {
            int4 e = list[i];
            if (e.x == e.y) continue;  // a self-loop (round 0 only)
            u64 k = key_of(e);
            if (k < ldcg(&minKey[e.x])) atomicMin(&minKey[e.x], k);
            if (k < ldcg(&minKey[e.y])) atomicMin(&minKey[e.y], k);
        }
        grid.sync();
        // (C) hook along the minimum edges
        for (long long i = global_thread(); i < kept; i += stride) {
            int4 e = list[i];
            if (e.x == e.y) continue;
            u64 k = key_of(e);
            if (ldcg(&minKey[e.x]) == k || ldcg(&minKey[e.y]) == k) {
                atomicOr(&chosen[(unsigned)e.w >> 5], 1u << (e.w & 31));
                unite(comp, e.x, e.y);
            }
        }
        grid.sync();
        if (round > 0) {
            cur = out;
            out = out == listA ? listB : listA;
        }
        count = kept;
        round++;
    }
    if (global_thread() == 0) ctr[MST_ROUNDS] = (u64)round;
}

// The SUMMARY of a forest left in chosen[] (issue 10: a few bytes copied back instead of the edge ids): over the
// packed edge list (u, v, integer weight, edge id), out[0] += chosen edges, out[1] += their weights, exactly (64-bit
// integers: an integer weight is below 2^31 and a forest has fewer than 2^31 edges). Used by both MST launchers
// (mst_boruvka, ecl_boruvka) when their keys are the integer weights; out[] is zeroed by the host.
extern "C" __global__ void mst_summary(const int4* __restrict__ edges, long long m, const unsigned* __restrict__ chosen,
                                       u64* out) {
    u64 count = 0, sum = 0;
    for (long long i = global_thread(); i < m; i += grid_threads()) {
        int4 e = edges[i];
        if ((chosen[(unsigned)e.w >> 5] >> ((unsigned)e.w & 31)) & 1u) {
            count++;
            sum += (u64)(unsigned)e.z;
        }
    }
    for (int o = WARP / 2; o > 0; o >>= 1) {
        count += __shfl_down_sync(FULL_MASK, count, o);
        sum += __shfl_down_sync(FULL_MASK, sum, o);
    }
    if (lane_id() == 0 && count > 0) {
        atomicAdd(&out[0], count);
        atomicAdd(&out[1], sum);
    }
}
