// Device-side changes to a resident graph (GpuResidentGraph, DeviceCsr, GpuMst): a batch of k re-weights is one
// small upload of (index, value) pairs and one launch of a scatter, instead of a copy of every weight; a structural
// batch moves the untouched rows on the device and writes the rebuilt ones from one packed upload (MergePlan).
// And the reverse for answers (Gather): the values of an answer at a few vertices (a TARGETS query), gathered on
// the device so that only they are copied back.
#include <cstdint>

// dst[index[i]] = value[i] for i < count. Indices may repeat only with equal values (the host sends the
// current weight of every arc it lists), so the order of the writes does not matter. Arc indices are int, or long
// long for a graph stored wide (the _o64 entry points).
template <typename I, typename T>
__device__ __forceinline__ void scatter(T* __restrict__ dst, const I* __restrict__ index, const T* __restrict__ value,
                                        int count) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dst[index[i]] = value[i];
    }
}

extern "C" __global__ void scatter_i32(int32_t* __restrict__ dst, const int32_t* __restrict__ index,
                                       const int32_t* __restrict__ value, int count) {
    scatter(dst, index, value, count);
}

extern "C" __global__ void scatter_f64(double* __restrict__ dst, const int32_t* __restrict__ index,
                                       const double* __restrict__ value, int count) {
    scatter(dst, index, value, count);
}

extern "C" __global__ void scatter_i32_o64(int32_t* __restrict__ dst, const int64_t* __restrict__ index,
                                           const int32_t* __restrict__ value, int count) {
    scatter(dst, index, value, count);
}

extern "C" __global__ void scatter_f64_o64(double* __restrict__ dst, const int64_t* __restrict__ index,
                                           const double* __restrict__ value, int count) {
    scatter(dst, index, value, count);
}

// dst[i] = src[index[i]] for i < count (32-bit elements: hops, parents).
extern "C" __global__ void gather_u32(const uint32_t* __restrict__ src, const int32_t* __restrict__ index, int count,
                                      uint32_t* __restrict__ dst) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dst[i] = src[index[i]];
    }
}

// dst[i] = src[index[i]] for i < count (64-bit elements: distance keys).
extern "C" __global__ void gather_u64(const uint64_t* __restrict__ src, const int32_t* __restrict__ index, int count,
                                      uint64_t* __restrict__ dst) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dst[i] = src[index[i]];
    }
}

// Piece p copies piece[3p + 2] elements from src[piece[3p]] to dst[piece[3p + 1]], one block a piece (MergePlan:
// pieces of at most 8192 elements, so every block has about the same work). src and dst never overlap.
template <typename T>
__device__ __forceinline__ void copy_pieces(const T* __restrict__ src, T* __restrict__ dst,
                                            const int32_t* __restrict__ piece, int pieces) {
    for (int p = blockIdx.x; p < pieces; p += gridDim.x) {
        int from = piece[3 * p], to = piece[3 * p + 1], len = piece[3 * p + 2];
        for (int i = threadIdx.x; i < len; i += blockDim.x) dst[to + i] = src[from + i];
    }
}

extern "C" __global__ void copy_pieces_u32(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst,
                                           const int32_t* __restrict__ piece, int pieces) {
    copy_pieces(src, dst, piece, pieces);
}

extern "C" __global__ void copy_pieces_u64(const uint64_t* __restrict__ src, uint64_t* __restrict__ dst,
                                           const int32_t* __restrict__ piece, int pieces) {
    copy_pieces(src, dst, piece, pieces);
}

// The MST edge list after a merge (GpuMst): edge i is an int4 (u, v, weight key, id = i); piece p moves a run of kept
// edges to their new ids, so each moved edge's id becomes its new index.
extern "C" __global__ void move_edges(const int4* __restrict__ src, int4* __restrict__ dst,
                                      const int32_t* __restrict__ piece, int pieces) {
    for (int p = blockIdx.x; p < pieces; p += gridDim.x) {
        int from = piece[3 * p], to = piece[3 * p + 1], len = piece[3 * p + 2];
        for (int i = threadIdx.x; i < len; i += blockDim.x) {
            int4 e = src[from + i];
            e.w = to + i;
            dst[to + i] = e;
        }
    }
}

// ---- The slack layout (DeviceCsr in slack form, issue 8): structural batches applied on the device ------------------
//
// Row u owns the arc slots [row[u], row[u + 1]) (its capacity); its live arcs are the first live[u] of them, the rest
// are pads. A pad is a self-loop u -> u of weight PAD (INT32_MAX, or +infinity for float64 weights): every BFS and
// SSSP kernel reads the whole capacity as arcs and a pad never changes an answer (u is already reached when it is
// expanded, and d + PAD is never below d), so the kernels run on the slack layout unchanged. A batch is a list of
// directed ops (src -> dst, value): dst >= 0 sets the arc's weight to value (adding the arc when absent), dst < 0
// removes the arc src -> ~dst; an undirected graph's batch holds one op per edge for both its arcs (slack_op), so
// only half as many ops cross PCIe. Ops are distinct per arc. Rows keep a sorted prefix (sorted[u] arcs, as built) that
// ops find by binary search; arcs added later follow it. Three launches: slack_find (set or remove found arcs; list the
// missing ones to add), slack_compact (rows that lost arcs close their gaps, in order), slack_add (missing arcs
// take a slot past live[u], or go to the overflow list when the row is full: the host then lays the graph out
// again with more room, slack_relayout, and adds them there).

template <typename W> struct Pad;
template <> struct Pad<int32_t> { __device__ static int32_t value() { return 0x7fffffff; } };
template <> struct Pad<double> { __device__ static double value() { return __longlong_as_double(0x7FF0000000000000ll); } };

// The ops of a batch as uploaded: one per arc, or, for an undirected graph, one per edge that stands for both of its
// arcs (mirror = 1: virtual op j is edge j >> 1, read as src -> dst when j is even and dst -> src when odd; removals
// keep dst's complement). Decodes virtual op j into its arc and whether it removes it; returns the edge's index (its
// value's).
__device__ __forceinline__ long long slack_op(long long j, int mirror, const int32_t* __restrict__ src,
                                              const int32_t* __restrict__ dst, int& u, int& v, bool& remove) {
    const long long e = mirror ? (j >> 1) : j;
    int a = src[e], b = dst[e];
    remove = b < 0;
    if (remove) b = ~b;
    if (mirror && (j & 1)) {
        u = b;
        v = a;
    } else {
        u = a;
        v = b;
    }
    return e;
}

// One warp per op: finds dst among row src's live arcs: by binary search in the row's sorted prefix (its first
// sorted[u] arcs, ascending by column: the rows as built, less removals), then by a warp's scan of the arcs added
// since (the tail). Found: set the weight, or mark the arc removed (weight PAD, its column kept so that other ops'
// searches of the row stay right; slack_compact then drops it) and list its row for slack_compact, once (rowMark[u]
// set; rows[] counted in counters[2]). Not found and to be set: appended to missing[] (count in counters[0]).
template <typename W>
__device__ __forceinline__ void slack_find(const int32_t* __restrict__ row, const int32_t* __restrict__ col,
                                           W* __restrict__ wt, const int32_t* __restrict__ live,
                                           const int32_t* __restrict__ sorted, const int32_t* __restrict__ src,
                                           const int32_t* __restrict__ dst, const W* __restrict__ value, int ops,
                                           int mirror, int32_t* __restrict__ missing,
                                           unsigned long long* __restrict__ counters, int32_t* __restrict__ rowMark,
                                           int32_t* __restrict__ rows) {
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < ops; i += warps) {
        int u, v;
        bool remove;
        const long long edge = slack_op(i, mirror, src, dst, u, v, remove);
        int s = row[u], e = s + live[u], m = s + sorted[u];
        int at = -1;
        if (lane == 0) {
            int lo = s, hi = m;   // first column >= v
            while (lo < hi) {
                int mid = (lo + hi) >> 1;
                if (col[mid] < v) lo = mid + 1; else hi = mid;
            }
            if (lo < m && col[lo] == v) at = lo;
        }
        at = __shfl_sync(0xffffffffu, at, 0);
        for (int base = m; base < e && at < 0; base += 32) {
            int k = base + lane;
            unsigned hit = __ballot_sync(0xffffffffu, k < e && col[k] == v);
            if (hit) at = base + __ffs(hit) - 1;
        }
        if (lane == 0) {
            if (at >= 0) {
                wt[at] = remove ? Pad<W>::value() : value[edge];
                if (remove && atomicExch(&rowMark[u], 1) == 0) rows[atomicAdd(&counters[2], 1ull)] = u;
            } else if (!remove) {
                missing[atomicAdd(&counters[0], 1ull)] = (int32_t)i;
            }
        }
    }
}

extern "C" __global__ void slack_find_i32(const int32_t* row, const int32_t* col, int32_t* wt, const int32_t* live,
                                          const int32_t* sorted, const int32_t* src, const int32_t* dst, const int32_t* value,
                                          int ops, int mirror, int32_t* missing, unsigned long long* counters,
                                          int32_t* rowMark, int32_t* rows) {
    slack_find(row, col, wt, live, sorted, src, dst, value, ops, mirror, missing, counters, rowMark, rows);
}

extern "C" __global__ void slack_find_f64(const int32_t* row, const int32_t* col, double* wt, const int32_t* live,
                                          const int32_t* sorted, const int32_t* src, const int32_t* dst, const double* value,
                                          int ops, int mirror, int32_t* missing, unsigned long long* counters,
                                          int32_t* rowMark, int32_t* rows) {
    slack_find(row, col, wt, live, sorted, src, dst, value, ops, mirror, missing, counters, rowMark, rows);
}

// One warp per row slack_find listed (rows[], distinct, counters[2] of them: the grid strides over however many
// there are): the live arcs not marked removed (weight PAD) move down in order, the freed slots become pads, live[u]
// and sorted[u] (the survivors of the sorted prefix) shrink, and the row's mark is cleared for the next batch. In
// place: a chunk of 32 slots is read whole before its survivors are written, and they are written at or below where
// they were read.
template <typename W>
__device__ __forceinline__ void slack_compact(const int32_t* __restrict__ row, int32_t* __restrict__ col,
                                              W* __restrict__ wt, int32_t* __restrict__ live,
                                              int32_t* __restrict__ sorted, const int32_t* __restrict__ rows,
                                              const unsigned long long* __restrict__ counters,
                                              int32_t* __restrict__ rowMark) {
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    const long long count = (long long)counters[2];
    for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < count; i += warps) {
        int u = rows[i];
        int s = row[u], e = s + live[u], m = s + sorted[u], out = s, sortedOut = 0;
        for (int base = s; base < e; base += 32) {
            int k = base + lane;
            int c = k < e ? col[k] : u;
            W w = k < e ? wt[k] : Pad<W>::value();
            bool keep = k < e && w != Pad<W>::value();
            unsigned mask = __ballot_sync(0xffffffffu, keep);
            sortedOut += __popc(__ballot_sync(0xffffffffu, keep && k < m));
            __syncwarp();
            if (keep) {
                int to = out + __popc(mask & ((1u << lane) - 1u));
                col[to] = c;
                wt[to] = w;
            }
            out += __popc(mask);
            __syncwarp();
        }
        for (int k = out + lane; k < e; k += 32) {
            col[k] = u;
            wt[k] = Pad<W>::value();
        }
        if (lane == 0) {
            live[u] = out - s;
            sorted[u] = sortedOut;
            rowMark[u] = 0;
        }
    }
}

extern "C" __global__ void slack_compact_i32(const int32_t* row, int32_t* col, int32_t* wt, int32_t* live,
                                             int32_t* sorted, const int32_t* rows, const unsigned long long* counters,
                                             int32_t* rowMark) {
    slack_compact(row, col, wt, live, sorted, rows, counters, rowMark);
}

extern "C" __global__ void slack_compact_f64(const int32_t* row, int32_t* col, double* wt, int32_t* live,
                                             int32_t* sorted, const int32_t* rows, const unsigned long long* counters,
                                             int32_t* rowMark) {
    slack_compact(row, col, wt, live, sorted, rows, counters, rowMark);
}

// One thread per missing op (a virtual op index into the batch, slack_op): takes slot live[src]++ when the row has
// room, else lists the op in overflow[] (count in counters[1]); live[u] then counts past the capacity, and the host
// clamps it (slack_clamp) before it lays the rows out again.
template <typename W>
__device__ __forceinline__ void slack_add(const int32_t* __restrict__ row, int32_t* __restrict__ col, W* __restrict__ wt,
                                          int32_t* __restrict__ live, const int32_t* __restrict__ src,
                                          const int32_t* __restrict__ dst, const W* __restrict__ value, int mirror,
                                          const int32_t* __restrict__ missing, int count,
                                          int32_t* __restrict__ overflow, unsigned long long* __restrict__ counters) {
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < count;
         j += (long long)gridDim.x * blockDim.x) {
        int i = missing[j];
        int u, v;
        bool remove;
        const long long edge = slack_op(i, mirror, src, dst, u, v, remove);
        int slot = atomicAdd(&live[u], 1);
        int at = row[u] + slot;
        if (at < row[u + 1]) {
            col[at] = v;
            wt[at] = value[edge];
        } else {
            overflow[atomicAdd(&counters[1], 1ull)] = i;
        }
    }
}

extern "C" __global__ void slack_add_i32(const int32_t* row, int32_t* col, int32_t* wt, int32_t* live,
                                         const int32_t* src, const int32_t* dst, const int32_t* value, int mirror,
                                         const int32_t* missing, int count, int32_t* overflow,
                                         unsigned long long* counters) {
    slack_add(row, col, wt, live, src, dst, value, mirror, missing, count, overflow, counters);
}

extern "C" __global__ void slack_add_f64(const int32_t* row, int32_t* col, double* wt, int32_t* live,
                                         const int32_t* src, const int32_t* dst, const double* value, int mirror,
                                         const int32_t* missing, int count, int32_t* overflow,
                                         unsigned long long* counters) {
    slack_add(row, col, wt, live, src, dst, value, mirror, missing, count, overflow, counters);
}

// live[u] = min(live[u], capacity of row u) for every u < n (after a slack_add that overflowed).
extern "C" __global__ void slack_clamp(const int32_t* __restrict__ row, int32_t* __restrict__ live, int n) {
    for (long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x) {
        int cap = row[u + 1] - row[u];
        if (live[u] > cap) live[u] = cap;
    }
}

// A new layout: one warp per row copies the live arcs of old row u (old live count: oldLive[u], or the whole row
// when oldLive is null: a compact CSR, whose rows are sorted) to the start of new row u and pads the rest;
// newLive[u] = that count, newSorted[u] = the old sorted prefix. Rows u >= oldN (new vertices) start empty.
template <typename W>
__device__ __forceinline__ void slack_relayout(const int32_t* __restrict__ oldRow, const int32_t* __restrict__ oldCol,
                                               const W* __restrict__ oldW, const int32_t* __restrict__ oldLive,
                                               const int32_t* __restrict__ oldSorted, int oldN,
                                               const int32_t* __restrict__ newRow, int32_t* __restrict__ newCol,
                                               W* __restrict__ newW, int32_t* __restrict__ newLive,
                                               int32_t* __restrict__ newSorted, int n) {
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long u = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; u < n; u += warps) {
        int s = 0, len = 0, sortedLen = 0;
        if (u < oldN) {
            s = oldRow[u];
            len = oldLive != nullptr ? oldLive[u] : oldRow[u + 1] - s;
            sortedLen = oldLive != nullptr ? oldSorted[u] : len;
        }
        int to = newRow[u], cap = newRow[u + 1] - to;
        for (int k = lane; k < cap; k += 32) {
            if (k < len) {
                newCol[to + k] = oldCol[s + k];
                newW[to + k] = oldW[s + k];
            } else {
                newCol[to + k] = (int32_t)u;
                newW[to + k] = Pad<W>::value();
            }
        }
        if (lane == 0) {
            newLive[u] = len;
            newSorted[u] = sortedLen;
        }
    }
}

extern "C" __global__ void slack_relayout_i32(const int32_t* oldRow, const int32_t* oldCol, const int32_t* oldW,
                                              const int32_t* oldLive, const int32_t* oldSorted, int oldN,
                                              const int32_t* newRow, int32_t* newCol, int32_t* newW,
                                              int32_t* newLive, int32_t* newSorted, int n) {
    slack_relayout(oldRow, oldCol, oldW, oldLive, oldSorted, oldN, newRow, newCol, newW, newLive, newSorted, n);
}

extern "C" __global__ void slack_relayout_f64(const int32_t* oldRow, const int32_t* oldCol, const double* oldW,
                                              const int32_t* oldLive, const int32_t* oldSorted, int oldN,
                                              const int32_t* newRow, int32_t* newCol, double* newW,
                                              int32_t* newLive, int32_t* newSorted, int n) {
    slack_relayout(oldRow, oldCol, oldW, oldLive, oldSorted, oldN, newRow, newCol, newW, newLive, newSorted, n);
}

// The transpose of the copy's live arcs (da2cf's relax_U reads in-arcs; a directed graph's slack-form copy has no
// transpose on the host that matches it): transpose_count counts each head's in-arcs (count zeroed by the host),
// the host turns the counts into row offsets, and transpose_fill_* writes arc u->v of weight w as v's in-arc from u
// at cursor[v]++ (cursor: the offsets' first n entries). One warp per row; a row's arcs are its first live[u] slots
// (live null: all of them). The order within a transposed row is the order of the atomics: any, as every reader's.
extern "C" __global__ void transpose_count(const int32_t* __restrict__ row, const int32_t* __restrict__ col,
                                           const int32_t* __restrict__ live, int n, int32_t* count) {
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long u = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; u < n; u += warps) {
        int s = row[u], e = live ? s + live[u] : row[u + 1];
        for (int k = s + lane; k < e; k += 32) atomicAdd(&count[col[k]], 1);
    }
}

template <typename T>
__device__ void transpose_fill(const int32_t* __restrict__ row, const int32_t* __restrict__ col,
                               const T* __restrict__ wt, const int32_t* __restrict__ live, int n, int32_t* cursor,
                               int32_t* __restrict__ tCol, T* __restrict__ tWt) {
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long u = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; u < n; u += warps) {
        int s = row[u], e = live ? s + live[u] : row[u + 1];
        for (int k = s + lane; k < e; k += 32) {
            int at = atomicAdd(&cursor[col[k]], 1);
            tCol[at] = (int32_t)u;
            tWt[at] = wt[k];
        }
    }
}

extern "C" __global__ void transpose_fill_i32(const int32_t* row, const int32_t* col, const int32_t* wt,
                                              const int32_t* live, int n, int32_t* cursor, int32_t* tCol,
                                              int32_t* tWt) {
    transpose_fill(row, col, wt, live, n, cursor, tCol, tWt);
}

extern "C" __global__ void transpose_fill_f64(const int32_t* row, const int32_t* col, const double* wt,
                                              const int32_t* live, int n, int32_t* cursor, int32_t* tCol,
                                              double* tWt) {
    transpose_fill(row, col, wt, live, n, cursor, tCol, tWt);
}
