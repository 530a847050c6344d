// Single-source shortest paths without a grid barrier per step: asynchronous bucketed delta-stepping in one
// persistent cooperative launch, after ADDS (Wang, Fussell, Lin, "A Fast Work-Efficient SSSP Algorithm for GPUs",
// PPoPP 2021): warps pull work from a window of bucket queues, relax with warp-cooperative expansion and push
// improved vertices into the bucket of their new distance; the window moves on when its lowest bucket drains.
//
// Keys are sssp.cu's: integer distances as u64 (sssp_async_i32) or the bits of non-negative doubles (sssp_async_f64),
// relaxed with atomicMin, so the result is the least fixed point of dist[v] = min(dist[u] + w), bit for bit what
// Dijkstra computes. Correctness needs only that every lowering of dist[v] is followed by an expansion of v that
// reads dist[v] at or below the lowered value; bucket order, duplicates and the window decide how much work is
// redundant, not the answer.
//
// Buckets. bucket(key) = key >> shift (integers, delta = 2^shift) or floor(key * (1/delta)) (doubles): monotone in
// the key. NB slots hold a window of buckets [low, low + NB), slot j = bucket & (NB - 1). A slot has a ring of C
// items (u64: vertex << 32 | piece; piece 0 = the whole vertex, k >= 1 = arcs [(k-1) P, kP) of a vertex with at
// least 2P arcs, P = `piece`, so that several warps share a hub) and four counters:
//   count  items of the slot's bucket not fully processed, plus the guards on it (below);
//   tail   positions reserved by producers (atomicAdd); positions >= C are not written: the vertex goes to far;
//   head   positions taken by consumers (atomicAdd, only for items already counted in avail, so every position
//          taken has been or is about to be written: the wait for it is bounded);
//   avail  (epoch << 40) | (written, untaken items + 2^39): a consumer takes k by adding -k and gives back what was
//          not there; the epoch (bucket / NB, 24 bits) names the bucket the slot holds, so a consumer with a stale
//          window never takes an item of another bucket.
// A vertex lowered to a bucket >= low + NB, or refused by a full ring, goes to the far list (each vertex at most
// once per phase: farMark). When the window is empty the phase ends; after a grid barrier the far list is split
// like sssp.cu's far pile: low = its smallest bucket, the vertices in the new window into the rings, the others
// kept. The first phase starts from a far list that holds the source.
//
// Work in proportion to what is reached (runs from a source): each vertex whose atomicMin found INF is listed once in
// reached[] (the source first), ctr[ASYNC_REACHED] of them, left in ctr[ASYNC_CLEAR] at the end; the next run resets
// dist, farMark and parent[] of exactly those (all n when the host says `fresh`: its first run, or after a seeded
// run, which writes the far lists and marks without listing). Only reached vertices are ever marked or lowered, so
// between runs dist holds the last answer and INF elsewhere; sssp.cu's listed parents pass and SUMMARY read the list.
//
// Warps. Global warp 0 is the manager, the only writer of low: when count[low] reads 0 it reads the counts above in
// order, retires the empty buckets below the first non-empty one (head = tail = 0, epoch + 1, then low) and, when
// all of [low, HI] read 0 and HI reads the same again (HI: the highest bucket counted this phase), ends the phase. The other warps are workers. A worker takes up to 32 items from
// its local queue (shared memory, FIFO, at most `local` items, all below low + ahead at push time) or, when that is
// empty, claims up to `batch` from the lowest ring in [low, low + ahead) that has some. It expands the items' arcs
// warp-cooperatively (concatenated, 32 per step; hubs first split into pieces, and pieces a full ring refuses are
// expanded by the splitting warp itself), skipping stale items (a local item whose key is above dist[v], a claimed
// one whose bucket is above bucket(dist[v]): a later lowering pushed v again), relaxes with atomicMin and sends each
// improved vertex to its local queue, to the rings (an outbox flushed 32 at a time) or to the far list. A local
// item carries its arc range, loaded alongside the atomicMin that pushed it, so a local step costs two dependent
// round trips (col/wt with dist[v]; atomicMin with the heads' rows).
//
// Counting without a barrier (why the manager may retire a bucket). A worker holds a guard: `held` units of count[G]
// for a G at or below the bucket of every item it holds (local queue and batch); claimed items bring their units (G
// = their bucket). Local items change no counter. When all local items lie above G the guard moves up (count[new]
// += 1, then count[G] -= held); when the worker holds nothing it gives the units back. Ring pushes add to count
// before the items can be seen. Expanding an item of bucket B creates items of buckets >= B only (non-negative
// weights, stale items skipped). So count[low] == 0 means bucket low holds nothing and never will; reading count[low
// + 1], count[low + 2], ... in that order, a 0 read after the 0s below it is final too (guards move only up, adding
// the new bucket before leaving the old, so a scan that saw the old at 0 sees the new). Every count increment first
// raises HI, and is released with it by the increment's maker before it gives its own units back; so 0s over [low,
// HI] in order, then HI unchanged, mean the window is empty for good: the phase is over, and every worker is idle
// (a held item keeps a count up).
//
// Memory ordering (PTX model, .gpu scope). Every word other blocks change is read with ld.relaxed or ld.cg, never
// through L1. Only message passing is used: a release is [writes by any lanes]; __syncwarp; fence.acq_rel by the
// signalling lane; [signal write], an acquire is [signal read]; fence.acq_rel by the reading lane; then the reads
// (by that lane, or by any lane after a __syncwarp):
// (1) producer: atomicMin(dist), count += k, release, ring write; consumer: spins on the position, acquire, dist[v]:
//     it sees the lowered distance.
// (2) consumer: position := EMPTY, ..., release, count -= held; manager: count reads 0, acquire, head = tail = 0,
//     epoch + 1, release, low; a producer of the slot's next bucket: low (relaxed), acquire (the fence in flush),
//     tail += k, ring write: the resets and the EMPTY stores come before it.
// (3) manager: head = tail = 0, fence, epoch + 1 (same lane); consumer: avail += -k reads that epoch, acquire,
//     head += k.
// (4) guard move: count[new] += 1, fence, count[G] -= held; manager: reads count[G] (acquire), then count[new].
// Waiting: a consumer waits only for a position a producer has reserved and writes a few instructions later, idle
// workers and the manager poll (with __nanosleep), no locks are held, and all blocks are resident (cooperative
// launch), so no warp waits on one that cannot run.
#include "frontier.cuh"
#include "sssp_keys.cuh"

// Counter slots (u64 ctr[]), mirrored by AsyncSssp on the host
enum AsyncCounter : int {
    ASYNC_PHASES = 0,     // async phases (far-list splits; the first seeds the source)
    ASYNC_BUCKETS = 1,    // buckets the manager retired (window advances)
    ASYNC_ITEMS = 2,      // work items taken (local, claimed; stale ones included)
    ASYNC_STALE = 3,      // items skipped as stale
    ASYNC_RELAXED = 4,    // successful relaxations (atomicMin lowered a distance)
    ASYNC_RING = 5,       // items written to the bucket rings (outbox flushes, far-list splits)
    ASYNC_FAR = 6,        // vertices appended to a far list (out of the window, or a full ring)
    ASYNC_OVERFLOW = 7,   // ring pushes refused by a full ring (sent to far)
    ASYNC_PIECES = 8,     // arc pieces written for high-degree vertices
    ASYNC_CLAIMS = 9,     // successful claims from the rings
    ASYNC_REACHED = 10,   // vertices a run from a source reached: the length of its reached[] list
    ASYNC_CLEAR = 11,     // the last such run's ASYNC_REACHED: what the next one resets (kept across launches)
    ASYNC_COUNTERS = 16   // size of the array the host allocates
};

// Sizes the host needs (AsyncSssp mirrors them)
enum AsyncLayout : int {
    ASYNC_SLOTS = 64,          // NB: bucket slots in the window (power of two)
    ASYNC_STATE_WORDS = 592,   // u64 words of the state buffer (slot counters, avail, globals)
    ASYNC_MAX_AHEAD = 32,      // largest `ahead` (buckets a worker takes from)
    ASYNC_LOCAL_CAPACITY = 64  // largest `local` (items a warp keeps in shared memory)
};

using namespace frontier;

namespace {

constexpr int NB = ASYNC_SLOTS;
constexpr int LOG_NB = 6;
static_assert((1 << LOG_NB) == NB, "NB is 2^LOG_NB");
constexpr int LOC_CAP = ASYNC_LOCAL_CAPACITY;  // per-warp local queue (power of two)
constexpr int OUT_CAP = 64;                    // per-warp outbox (power of two, >= 2 * WARP)
constexpr u64 EMPTY = U64_MAX;                 // a free ring position (vertex ids are below 2^31)
constexpr u64 NO_GUARD = U64_MAX;
constexpr u64 MAX_BUCKET = 1ull << 62;         // buckets are clamped here (window arithmetic cannot overflow)
constexpr int EPOCH_SHIFT = 40;
constexpr u64 EPOCH_MASK = (1ull << 24) - 1;
constexpr u64 CNT_MASK = (1ull << EPOCH_SHIFT) - 1;
constexpr u64 CNT_BIAS = 1ull << 39;
// Idle worker backoff (ns). Hundreds of idle warps poll the same few words (low, avail): each backs off to
// IDLE_SLEEP_MAX, yet with that many pollers new work is still seen within nanoseconds.
constexpr unsigned IDLE_SLEEP_MIN = 64, IDLE_SLEEP_MAX = 2048;

// state[] layout (u64 words): per slot j, count/tail/head at j * SLOT_STRIDE (one 64-byte line per slot), then
// avail[NB] (contiguous: idle workers read a window of them at once), then the globals.
constexpr int SLOT_STRIDE = 8;
constexpr int AVAIL = NB * SLOT_STRIDE;
constexpr int LOW = AVAIL + NB;          // lowest bucket of the window (written by the manager only)
constexpr int PHASE_DONE = LOW + 1;      // set by the manager when the window is quiescent
constexpr int FAR_SIZE = LOW + 2;        // 2 words: sizes of the two far lists
constexpr int FAR_MIN = LOW + 4;         // 2 words: smallest bucket in each far list (split step)
constexpr int HI = LOW + 6;              // highest bucket counted this phase (raised before each count increment)
static_assert(LOW + 16 == ASYNC_STATE_WORDS, "state layout");

__device__ __forceinline__ int count_at(int j) { return j * SLOT_STRIDE; }
__device__ __forceinline__ int tail_at(int j) { return j * SLOT_STRIDE + 1; }
__device__ __forceinline__ int head_at(int j) { return j * SLOT_STRIDE + 2; }
__device__ __forceinline__ int slot_of(u64 b) { return (int)(b & (NB - 1)); }
__device__ __forceinline__ u64 epoch_of(u64 b) { return (b >> LOG_NB) & EPOCH_MASK; }

// ---- memory operations at .gpu scope ------------------------------------------------------------------------------

__device__ __forceinline__ u64 ld_relaxed(const u64* p) {
    u64 v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ void st_relaxed(u64* p, u64 v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void fence_acq_rel() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
__device__ __forceinline__ void add_u64(u64* p, long long delta) { atomicAdd(p, (u64)delta); }

__device__ __forceinline__ u64 warp_min(u64 x) {
    for (int o = WARP / 2; o > 0; o >>= 1) {
        u64 y = __shfl_xor_sync(FULL_MASK, x, o);
        x = y < x ? y : x;
    }
    return x;
}

// ---- keys and buckets (sssp.cu's key forms) ------------------------------------------------------------------------

// IntWeights, DoubleWeights: sssp_keys.cuh

// Rows of a slack-form copy (DeviceCsr.withSlack): row v's slots are [row[v], row[v + 1]) but only its first live[v]
// are arcs, the rest pads. SlackRows<W> is W's key form on such a copy: the kernel bounds each row by its live count
// and reads no pads. A compile-time choice, so that the compact kernels stay the code they were (a run-time null
// check on the count cost the compact kernel about 8%, benchmarks "Pads and target (c)").
template <typename Base>
struct SlackRows : Base {};
template <typename W>
constexpr bool slack_rows = false;
template <typename Base>
constexpr bool slack_rows<SlackRows<Base>> = true;

template <typename W>
struct Ctx {
    const int* __restrict__ row;
    const int* __restrict__ live;  // SlackRows only: live arcs per row
    const int* __restrict__ col;
    const typename W::type* __restrict__ wt;
    int n;
    u64* dist;
    u64* rings;   // NB rings of 2^ringLog items
    int* far;     // two far lists of n vertices
    int* farMark;
    int* reached;       // a run from a source: the vertices it reached (null: a seeded run lists none)
    u64* reachedCount;
    u64* st;      // state words
    int ringLog;
    u64 ringCap;
    int ahead;    // buckets [low, low + ahead) are taken from (1..32)
    int local;    // items a warp keeps in its local queue (0..LOC_CAP)
    int batch;    // items a claim takes at most (1..32)
    int piece;    // arcs per piece; vertices with at least 2 * piece arcs are split
    int check;    // read dist[v] before the atomicMin
    int shift;    // integers: delta = 2^shift
    double inv;   // doubles: 1 / delta

    // Monotone in the key: equal keys share a bucket, a smaller bucket means a smaller key.
    __device__ __forceinline__ u64 bucket(u64 key) const {
        if constexpr (sizeof(typename W::type) == sizeof(int)) {
            u64 b = key >> shift;
            return b < MAX_BUCKET ? b : MAX_BUCKET;
        } else {
            double x = __longlong_as_double((long long)key) * inv;
            return x < 0x1p62 ? (u64)__double2ull_rd(x) : MAX_BUCKET;
        }
    }
    __device__ __forceinline__ u64* ring(int j, u64 pos) const { return rings + ((u64)j << ringLog) + pos; }
};

// Per-warp state; every field is warp-uniform (computed identically by all lanes).
struct Warp {
    int locHead, locN;   // local queue: FIFO ring of LOC_CAP in shared memory
    int outHead, outN;   // outbox: FIFO ring of OUT_CAP in shared memory
    u64 guard;           // G, or NO_GUARD
    u64 held;            // units of count[slot(G)] this warp owns
    int mark;            // far mark of this phase (phase + 1)
    int* farList;        // far list this phase appends to
    u64* farSize;
    u64 hi;              // a value HI had (this lane's view; not uniform: only the lanes that raise HI use it)
    // tallies (flushed to ctr at the end of the phase)
    u64 items, stale, relaxed, ringed, farred, overflow, pieces, claims;
};

struct Buffers {  // this warp's shared memory
    int* locV;    // local queue: vertex,
    u64* locK;    // the key it was pushed with,
    int2* locR;   // its arcs [row[v], row[v + 1]) (loaded with the relaxation that pushed it)
    u64* outItem; // outbox: ring item,
    u64* outB;    // its bucket
};

// Before count[slot(b)] is raised: makes HI >= b (rarely an atomic: only for a bucket above every one seen). The
// release that precedes the caller's later count decrement publishes it with the increment.
template <typename W>
__device__ __forceinline__ void raise_hi(const Ctx<W>& c, Warp& s, u64 b) {
    if (b > s.hi) {
        u64 old = atomicMax(&c.st[HI], b);
        s.hi = old > b ? old : b;
    }
}

// Appends the vertices of the lanes with take == true to this phase's far list, at most once per vertex and phase.
template <typename W>
__device__ __forceinline__ void far_push(const Ctx<W>& c, Warp& s, bool take, int v) {
    bool append = false;
    if (take) append = atomicExch(&c.farMark[v], s.mark) != s.mark;
    unsigned m = __ballot_sync(FULL_MASK, append);
    if (m == 0) return;
    int leader = __ffs(m) - 1;
    u64 base = 0;
    if (lane_id() == leader) base = atomicAdd(s.farSize, (u64)__popc(m));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (append) s.farList[base + __popc(m & lanes_below())] = v;  // read after a grid barrier
    s.farred += __popc(m);
}

// Writes the first m (<= 32) outbox entries to their rings, grouped by bucket; a full ring sends the vertex to far.
template <typename W>
__device__ void flush(const Ctx<W>& c, Warp& s, const Buffers& buf, int m) {
    int lane = lane_id();
    bool valid = lane < m;
    u64 item = 0, b = U64_MAX;  // invalid lanes form one group of their own (no bucket is U64_MAX)
    if (valid) {
        int i = (s.outHead + lane) & (OUT_CAP - 1);
        item = buf.outItem[i];
        b = buf.outB[i];
    }
    s.outHead = (s.outHead + m) & (OUT_CAP - 1);
    s.outN -= m;
    // acquire: the `low` a lane read (relaxed) put these buckets in the window, so their slots' resets must be seen
    // by the tail adds below, made by other lanes maybe: each lane's fence, then the warp barrier
    fence_acq_rel();
    __syncwarp();
    int j = slot_of(b);
    unsigned peers = __match_any_sync(FULL_MASK, b);
    int leader = __ffs(peers) - 1;
    u64 rank = (u64)__popc(peers & lanes_below());
    u64 size = (u64)__popc(peers);
    u64 p = 0;
    if (valid && lane == leader) p = atomicAdd(&c.st[tail_at(j)], size);
    p = __shfl_sync(FULL_MASK, p, leader);
    u64 fit = p >= c.ringCap ? 0 : (c.ringCap - p < size ? c.ringCap - p : size);
    bool fits = valid && rank < fit;
    if (valid && lane == leader && fit > 0) {
        raise_hi(c, s, b);
        atomicAdd(&c.st[count_at(j)], fit);
    }
    // release: the warp's dist atomicMins (any lane, any earlier chunk) and the counts above precede the items
    __syncwarp();
    fence_acq_rel();
    if (fits) st_relaxed(c.ring(j, p + rank), item);
    if (valid && lane == leader && fit > 0) atomicAdd(&c.st[AVAIL + j], fit);
    unsigned wrote = __ballot_sync(FULL_MASK, fits), refused = __ballot_sync(FULL_MASK, valid && !fits);
    s.ringed += __popc(wrote);
    s.overflow += __popc(refused);
    far_push(c, s, valid && !fits, (int)(item >> 32));
}

// Splits the vertices of the lanes with big == true into pieces written to the ring of their own bucket b (held by
// this warp's guard, so its slot is current). Returns, in each big lane, how many of its pieces the ring took: the
// lane expands the arcs after them itself (a full ring must not send the vertex to far: it would be split and
// refused again at every far-list split).
template <typename W>
__device__ u64 push_pieces(const Ctx<W>& c, Warp& s, bool big, int v, u64 b, int degree) {
    u64 mine = 0;
    unsigned todo = __ballot_sync(FULL_MASK, big);
    while (todo != 0) {
        int src = __ffs(todo) - 1;
        todo &= todo - 1;
        int u = __shfl_sync(FULL_MASK, v, src);
        u64 bu = __shfl_sync(FULL_MASK, b, src);
        int d = __shfl_sync(FULL_MASK, degree, src);
        u64 pieces = (u64)((d + c.piece - 1) / c.piece);
        int j = slot_of(bu);
        fence_acq_rel();  // acquire (as in flush)
        __syncwarp();
        u64 p = 0;
        if (lane_id() == 0) p = atomicAdd(&c.st[tail_at(j)], pieces);
        p = __shfl_sync(FULL_MASK, p, 0);
        u64 fit = p >= c.ringCap ? 0 : (c.ringCap - p < pieces ? c.ringCap - p : pieces);
        if (lane_id() == 0 && fit > 0) {
            raise_hi(c, s, bu);
            atomicAdd(&c.st[count_at(j)], fit);
        }
        __syncwarp();
        fence_acq_rel();  // release (as in flush)
        for (u64 q = lane_id(); q < fit; q += WARP) st_relaxed(c.ring(j, p + q), ((u64)u << 32) | (q + 1));
        __syncwarp();
        if (lane_id() == 0 && fit > 0) atomicAdd(&c.st[AVAIL + j], fit);
        s.pieces += fit;
        s.ringed += fit;
        if (fit < pieces) s.overflow += 1;
        if (lane_id() == src) mine = fit;
    }
    return mine;
}

// Gives the guard's units back: everything this warp did before (EMPTY stores, ring pushes) is released first.
template <typename W>
__device__ __forceinline__ void release_guard(const Ctx<W>& c, Warp& s) {
    __syncwarp();
    fence_acq_rel();
    if (lane_id() == 0) add_u64(&c.st[count_at(slot_of(s.guard))], -(long long)s.held);
    s.guard = NO_GUARD;
    s.held = 0;
}

// Moves the guard up to bucket b (> guard): the new unit is counted before the old ones are given back.
template <typename W>
__device__ __forceinline__ void move_guard(const Ctx<W>& c, Warp& s, u64 b) {
    if (lane_id() == 0) {
        raise_hi(c, s, b);
        atomicAdd(&c.st[count_at(slot_of(b))], 1ull);
    }
    __syncwarp();
    fence_acq_rel();
    if (lane_id() == 0) add_u64(&c.st[count_at(slot_of(s.guard))], -(long long)s.held);
    s.guard = b;
    s.held = 1;
}

// Claims up to `batch` items from the lowest ring in [low, low + ahead) that has some; returns how many (lane i < got
// holds item i in `item`), their bucket in b. The claimed items' count units become the caller's.
template <typename W>
__device__ int claim(const Ctx<W>& c, Warp& s, u64 low, u64& b, u64& item) {
    int lane = lane_id();
    low = __shfl_sync(FULL_MASK, low, 0);  // one window for the whole warp (lanes may have read different lows)
    bool some = false;
    long long seen = 0;
    if (lane < c.ahead) {
        u64 bl = low + (u64)lane;
        u64 a = ld_relaxed(&c.st[AVAIL + slot_of(bl)]);
        seen = (long long)(a & CNT_MASK) - (long long)CNT_BIAS;
        some = (a >> EPOCH_SHIFT) == epoch_of(bl) && seen > 0;
    }
    unsigned m = __ballot_sync(FULL_MASK, some);
    if (m == 0) return 0;
    int src = __ffs(m) - 1;
    b = low + (u64)src;
    int j = slot_of(b);
    seen = __shfl_sync(FULL_MASK, seen, src);
    u64 k = seen < c.batch ? (u64)seen : (u64)c.batch;
    u64 got = 0, h = 0;
    if (lane == 0) {
        u64 old = atomicAdd(&c.st[AVAIL + j], (u64)(-(long long)k));
        if ((old >> EPOCH_SHIFT) != epoch_of(b)) {
            atomicAdd(&c.st[AVAIL + j], k);  // another bucket's slot now: give the k back
        } else {
            long long have = (long long)(old & CNT_MASK) - (long long)CNT_BIAS;
            got = have <= 0 ? 0 : ((u64)have < k ? (u64)have : k);
            if (got < k) atomicAdd(&c.st[AVAIL + j], k - got);
            if (got > 0) {
                fence_acq_rel();  // acquire: the epoch we read was set after the slot's head was reset
                h = atomicAdd(&c.st[head_at(j)], got);
            }
        }
    }
    got = __shfl_sync(FULL_MASK, got, 0);
    if (got == 0) return 0;
    h = __shfl_sync(FULL_MASK, h, 0);
    u64 x = EMPTY;
    if ((u64)lane < got) {
        u64* at = c.ring(j, h + (u64)lane);  // h + got <= items written to this slot this epoch <= ringCap
        do {
            x = ld_relaxed(at);  // reserved by a producer that writes it a few instructions later
        } while (x == EMPTY);
        st_relaxed(at, EMPTY);
    }
    fence_acq_rel();  // acquire: the producer's dist atomicMin precedes its write of x
    __syncwarp();
    item = x;
    s.claims += 1;
    return (int)got;
}

// The end of row v's arcs (rs: its start, already loaded).
template <typename W>
__device__ __forceinline__ int row_end(const Ctx<W>& c, int v, int rs) {
    if constexpr (slack_rows<W>) return rs + __ldg(&c.live[v]);
    else return __ldg(&c.row[v + 1]);
}

// Expands one batch: lane i holds item i when valid: vertex v, for a local item its arcs [rs, re) and its key, for a
// claimed one its piece (0: the whole vertex) and its bucket b (the rows are loaded here). low: the
// window as this lane read it at the top of the iteration (possibly stale, and lanes may differ: each is a value
// low had, at or below the current one, and every decision made with it here is per lane and safe).
//
// Latency: a local item's arcs come with it and the relaxation that pushed it loaded them, so its expansion is two
// dependent round trips (col/wt with dist[v], then the atomicMins with the heads' rows); a claimed one adds the row
// load. Staleness is decided per arc from the owner's dist[v], so its load overlaps the col/wt loads.
template <typename W, bool fromLoc>  // a compile-time constant: the local path must not wait for dist[v] early
__device__ void expand(const Ctx<W>& c, Warp& s, const Buffers& buf, bool valid, int v, int rs, int re, int piece,
                       u64 key, u64 b, u64 low) {
    int lane = lane_id();
    u64 du = 0;
    if (valid) {
        if (!fromLoc) {
            rs = __ldg(&c.row[v]);
            re = row_end(c, v, rs);
        }
        du = ld_relaxed(&c.dist[v]);
    }
    // A local item is stale when dist[v] went below its key, a claimed one when dist[v] left its bucket: either way
    // a later improvement pushed v again. A live local item has du == key; a live claimed one bucket(du) == b (du is
    // at most the key it was pushed with), so what it pushes lies in buckets >= its own.
    if (piece > 0) {  // claimed items only
        rs += (piece - 1) * c.piece;
        re = re - rs < c.piece ? re : rs + c.piece;
    }
    bool big = valid && piece == 0 && re - rs >= 2 * c.piece;
    if (__any_sync(FULL_MASK, big)) {  // rare: staleness first, then pieces for the live big vertices
        bool stale = valid && (fromLoc ? du < key : c.bucket(du) < b);
        big = big && !stale;
        if (fromLoc && big) b = c.bucket(du);  // (du == key when live)
        u64 pushed = push_pieces(c, s, big, v, b, re - rs);
        if (big) rs = pushed * c.piece >= (u64)(re - rs) ? re : rs + (int)pushed * c.piece;  // the rest: here
        if (stale) rs = re;
    }
    // a claimed item's staleness is known with its rows (no wait): its arcs are not even loaded; a local item's is
    // decided per arc below, so that its expansion need not wait for dist[v] before loading them
    bool skip = !fromLoc && valid && c.bucket(du) < b;
    int len = valid && !skip ? re - rs : 0;
    int incl = len;
    for (int o = 1; o < WARP; o <<= 1) {
        int t = __shfl_up_sync(FULL_MASK, incl, o);
        if (lane >= o) incl += t;
    }
    int total = __shfl_sync(FULL_MASK, incl, WARP - 1);
    int excl = incl - len;
    for (int base = 0; base < total; base += WARP) {  // warp-uniform trip count
        int p = base + lane;
        // owner: the number of lanes whose inclusive end is <= p (ends ascend)
        int owner = 0;
        for (int step = WARP / 2; step > 0; step >>= 1) {
            int e = __shfl_sync(FULL_MASK, incl, owner + step - 1);
            if (e <= p) owner += step;
        }
        int start = __shfl_sync(FULL_MASK, rs, owner);
        int first = __shfl_sync(FULL_MASK, excl, owner);
        int w = -1, wrs = 0, wre = 0;
        typename W::type weight = 0;
        bool act = p < total;
        if (act) {
            int k = start + (p - first);
            w = __ldg(&c.col[k]);
            weight = __ldg(&c.wt[k]);
        }
        // the owner's distance and staleness (waits for dist[v], loaded with the rows)
        u64 d = __shfl_sync(FULL_MASK, du, owner);
        u64 okey = __shfl_sync(FULL_MASK, fromLoc ? key : b, owner);
        bool live = act && (fromLoc ? d >= okey : c.bucket(d) >= okey);  // not stale (d > key cannot happen)
        bool improved = false, newly = false;
        u64 nd = 0;
        if (live) {
            nd = W::add(d, weight);
            wrs = __ldg(&c.row[w]);  // for the local queue, issued with the atomicMin
            wre = row_end(c, w, wrs);
            if (!c.check || nd < ld_relaxed(&c.dist[w])) {
                u64 old = atomicMin(&c.dist[w], nd);
                improved = nd < old;
                newly = improved && old == W::INF;
            }
        }
        s.relaxed += __popc(__ballot_sync(FULL_MASK, improved));
        if (c.reached != nullptr) {  // (uniform) a vertex reached for the first time is listed once
            unsigned fm = __ballot_sync(FULL_MASK, newly);
            if (fm != 0) {
                int leader = __ffs(fm) - 1;
                u64 base = 0;
                if (lane == leader) base = atomicAdd(c.reachedCount, (u64)__popc(fm));
                base = __shfl_sync(FULL_MASK, base, leader);
                if (newly) c.reached[base + __popc(fm & lanes_below())] = w;
            }
        }
        u64 nb = improved ? c.bucket(nd) : 0;
        bool inWindow = improved && nb < low + NB;
        bool wantLocal = inWindow && nb < low + (u64)c.ahead;
        unsigned localMask = __ballot_sync(FULL_MASK, wantLocal);
        int room = c.local - s.locN;
        int r = __popc(localMask & lanes_below());
        bool toLocal = wantLocal && r < room;
        if (toLocal) {
            int i = (s.locHead + s.locN + r) & (LOC_CAP - 1);
            buf.locV[i] = w;
            buf.locK[i] = nd;
            buf.locR[i] = make_int2(wrs, wre);
        }
        int taken = __popc(localMask);
        s.locN += taken < room ? taken : room;
        bool toRing = inWindow && !toLocal;
        unsigned ringMask = __ballot_sync(FULL_MASK, toRing);
        if (toRing) {
            int i = (s.outHead + s.outN + __popc(ringMask & lanes_below())) & (OUT_CAP - 1);
            buf.outItem[i] = (u64)w << 32;
            buf.outB[i] = nb;
        }
        s.outN += __popc(ringMask);
        far_push(c, s, improved && !inWindow, w);
        __syncwarp();
        if (s.outN >= WARP) flush(c, s, buf, WARP);
    }
    bool stale = valid && (fromLoc ? du < key : c.bucket(du) < b);
    s.stale += __popc(__ballot_sync(FULL_MASK, stale));
}

// Worker loop of one phase: runs until the manager declares the window quiescent.
template <typename W>
__device__ void worker(const Ctx<W>& c, Warp& s, const Buffers& buf) {
    int lane = lane_id();
    unsigned sleep = IDLE_SLEEP_MIN;
    while (true) {
        u64 low = ld_relaxed(&c.st[LOW]);
        bool valid;
        int v = 0, piece = 0, rs = 0, re = 0;
        u64 key = 0, b = 0;
        bool fromLoc;
        if (s.locN == 0) {
            if (s.guard != NO_GUARD) release_guard(c, s);  // (not reached: released when the queue empties)
            u64 item = EMPTY;
            int got = claim(c, s, low, b, item);
            if (got == 0) {
                // the end of the phase is looked for only after a few empty polls (one word less to poll); lane 0
                // reads it for the warp, which must leave the loop as one
                u64 done = 0;
                if (sleep == IDLE_SLEEP_MAX && lane == 0) done = ld_relaxed(&c.st[PHASE_DONE]);
                if (__shfl_sync(FULL_MASK, done, 0) != 0) {
                    fence_acq_rel();
                    break;
                }
                __nanosleep(sleep);
                sleep = sleep * 2 < IDLE_SLEEP_MAX ? sleep * 2 : IDLE_SLEEP_MAX;
                continue;
            }
            sleep = IDLE_SLEEP_MIN;
            s.guard = b;
            s.held = (u64)got;
            valid = lane < got;
            v = valid ? (int)(item >> 32) : 0;
            piece = valid ? (int)(item & 0xFFFFFFFFull) : 0;
            fromLoc = false;
        } else {
            int m = s.locN < WARP ? s.locN : WARP;
            valid = lane < m;
            if (valid) {
                int i = (s.locHead + lane) & (LOC_CAP - 1);
                v = buf.locV[i];
                key = buf.locK[i];
                int2 r = buf.locR[i];
                rs = r.x;
                re = r.y;
            }
            __syncwarp();
            s.locHead = (s.locHead + m) & (LOC_CAP - 1);
            s.locN -= m;
            fromLoc = true;
        }
        s.items += __popc(__ballot_sync(FULL_MASK, valid));
        if (fromLoc) expand<W, true>(c, s, buf, valid, v, rs, re, 0, key, 0, low);
        else expand<W, false>(c, s, buf, valid, v, 0, 0, piece, 0, b, low);
        while (s.outN > 0) flush(c, s, buf, s.outN < WARP ? s.outN : WARP);
        if (s.locN == 0) {
            if (s.guard != NO_GUARD) release_guard(c, s);
        } else {
            // every local item lies in [guard, guard + NB); move the guard up when they all lie above it
            unsigned above = NB;
            for (int t = lane; t < s.locN; t += WARP) {
                unsigned x = (unsigned)(c.bucket(buf.locK[(s.locHead + t) & (LOC_CAP - 1)]) - s.guard);
                above = x < above ? x : above;
            }
            above = __reduce_min_sync(FULL_MASK, above);
            if (above > 0) move_guard(c, s, s.guard + above);
        }
    }
}

// Manager loop of one phase (global warp 0; lane 0 reads, the warp retires slots).
//
// When count[low] reads 0 it reads count[low + 1], ... in order (each read then a fence) up to the first non-zero
// one, and retires the buckets below it. Reaching HI with zeros only, it reads HI again: unchanged, the window is
// quiescent (every count increment raises HI first, and the increments the scan could have missed were made by
// warps whose guards it saw released: their release orders that HI raise before the read); raised, it reads on.
template <typename W>
__device__ void manager(const Ctx<W>& c, u64& retiredTotal) {
    int lane = lane_id();
    u64 b = 0, hi = 0;
    if (lane == 0) {
        b = ld_relaxed(&c.st[LOW]);
        hi = ld_relaxed(&c.st[HI]);
    }
    b = __shfl_sync(FULL_MASK, b, 0);
    while (true) {
        int zeros = 0;  // buckets b, b + 1, ... read 0 in that order
        bool quiet = false;
        if (lane == 0 && ld_relaxed(&c.st[count_at(slot_of(b))]) == 0) {
            fence_acq_rel();  // acquire, and orders the next read after this one
            zeros = 1;
            while (true) {
                if (b + (u64)zeros > hi) {
                    u64 h = ld_relaxed(&c.st[HI]);
                    fence_acq_rel();
                    if (b + (u64)zeros > h) {
                        quiet = true;
                        break;
                    }
                    hi = h;  // (below b + NB: every counted bucket was in the window)
                }
                u64 x = ld_relaxed(&c.st[count_at(slot_of(b + (u64)zeros))]);
                fence_acq_rel();
                if (x != 0) break;
                zeros++;
            }
        }
        zeros = __shfl_sync(FULL_MASK, zeros, 0);
        if (__shfl_sync(FULL_MASK, quiet, 0)) {  // [b, HI] read 0 in order, HI unchanged: quiescent
            if (lane == 0) st_relaxed(&c.st[PHASE_DONE], 1);  // after the fences above: a release
            break;
        }
        if (zeros == 0) continue;
        // buckets b .. b + zeros - 1 are empty for good: give their slots to b + NB ..
        // (the lane that resets a slot also bumps its epoch: a consumer that reads the new epoch sees the reset)
        for (int r = lane; r < zeros; r += WARP) {
            int j = slot_of(b + (u64)r);
            st_relaxed(&c.st[tail_at(j)], 0);
            st_relaxed(&c.st[head_at(j)], 0);
        }
        fence_acq_rel();
        for (int r = lane; r < zeros; r += WARP) atomicAdd(&c.st[AVAIL + slot_of(b + (u64)r)], 1ull << EPOCH_SHIFT);
        __syncwarp();
        fence_acq_rel();  // release: every lane's resets precede the new low (a producer's acquire of low sees them)
        b += (u64)zeros;
        retiredTotal += (u64)zeros;
        if (lane == 0) st_relaxed(&c.st[LOW], b);
    }
}

template <typename W>
__device__ void async_sssp(const int* __restrict__ row, const int* __restrict__ col,
                           const typename W::type* __restrict__ wt, int n, u64* dist, u64* rings, int* far,
                           int* farMark, u64* st, u64* ctr, int source, u64 delta, int ringLog, int ahead, int local,
                           int batch, int piece, int check, int workers, int clear, const u64* seeds,
                           const int* __restrict__ live, int* parent, int* reached, int fresh) {
    cg::grid_group grid = cg::this_grid();
    __shared__ int locV[WARPS_PER_BLOCK][LOC_CAP];
    __shared__ u64 locK[WARPS_PER_BLOCK][LOC_CAP];
    __shared__ int2 locR[WARPS_PER_BLOCK][LOC_CAP];
    __shared__ u64 outItem[WARPS_PER_BLOCK][OUT_CAP];
    __shared__ u64 outB[WARPS_PER_BLOCK][OUT_CAP];
    int wib = threadIdx.x / WARP;
    Buffers buf{locV[wib], locK[wib], locR[wib], outItem[wib], outB[wib]};

    Ctx<W> c;
    c.row = row;
    c.live = live;
    c.col = col;
    c.wt = wt;
    c.n = n;
    c.dist = dist;
    c.rings = rings;
    c.far = far;
    c.farMark = farMark;
    c.reached = seeds == nullptr ? reached : nullptr;
    c.reachedCount = &ctr[ASYNC_REACHED];
    c.st = st;
    c.ringLog = ringLog;
    c.ringCap = 1ull << ringLog;
    c.ahead = ahead < 1 ? 1 : (ahead > ASYNC_MAX_AHEAD ? ASYNC_MAX_AHEAD : ahead);
    c.local = local < 0 ? 0 : (local > LOC_CAP ? LOC_CAP : local);
    c.batch = batch < 1 ? 1 : (batch > WARP ? WARP : batch);
    c.piece = piece < WARP ? WARP : (piece > (1 << 24) ? (1 << 24) : piece);
    c.check = check;
    if constexpr (sizeof(typename W::type) == sizeof(int)) {
        c.shift = delta == 0 ? 0 : 63 - __clzll((long long)delta);  // the host passes a power of two
        c.inv = 0;
    } else {
        c.shift = 0;
        c.inv = 1.0 / __longlong_as_double((long long)delta);
    }

    const long long threads = grid_threads(), me = global_thread();
    if (seeds == nullptr) {  // seeded: the caller set dist, farMark (0 for the seeds, else -1) and far list 0
        // reset what the last run from a source reached (all n when fresh: the first run, or after a seeded one);
        // the source may be among them: its thread writes the source's values too
        const long long prev = fresh ? n : (long long)ldcg(&ctr[ASYNC_CLEAR]);
        for (long long i = me; i < prev; i += threads) {
            int v = fresh ? (int)i : ldcg(&reached[i]);
            dist[v] = v == source ? 0 : W::INF;
            farMark[v] = v == source ? 0 : -1;
            parent[v] = -1;
        }
    }
    if (clear) {  // otherwise the rings are as every completed launch leaves them: all EMPTY
        const long long ringItems = (long long)NB << ringLog;
        for (long long i = me; i < ringItems; i += threads) rings[i] = EMPTY;
    }
    for (long long i = me; i < ASYNC_STATE_WORDS; i += threads) st[i] = 0;
    if (me == 0) {
        for (int i = 0; i < ASYNC_COUNTERS; i++)
            if (i != ASYNC_CLEAR) ctr[i] = 0;  // ASYNC_CLEAR: read above by every thread
        if (seeds == nullptr) {
            far[0] = source;  // list 0 holds the source (mark 0)
            dist[source] = 0;
            farMark[source] = 0;
            ctr[ASYNC_REACHED] = 1;  // the source, listed below (reached[] is read above)
        }
    }
    grid.sync();
    if (me == 0) {
        if (seeds == nullptr) reached[0] = source;
        st[FAR_SIZE] = seeds == nullptr ? 1 : *seeds;
        st[FAR_SIZE + 1] = 0;
        st[FAR_MIN] = U64_MAX;
        st[FAR_MIN + 1] = U64_MAX;
    }
    grid.sync();

    u64 retired = 0;
    Warp s;
    s.items = s.stale = s.relaxed = s.ringed = s.farred = s.overflow = s.pieces = s.claims = 0;
    int phase = 0;
    for (;; phase++) {
        int cur = phase & 1, nxt = cur ^ 1;
        u64 size = ld_relaxed(&st[FAR_SIZE + cur]);
        if (size == 0) break;
        const int* list = far + (long long)cur * n;
        int* keep = far + (long long)nxt * n;
        // (1) smallest bucket in the far list
        u64 mb = U64_MAX;
        for (long long i = me; i < (long long)size; i += threads) {
            u64 x = c.bucket(ld_relaxed(&dist[ldcg(&list[i])]));
            mb = x < mb ? x : mb;
        }
        mb = warp_min(mb);
        if (lane_id() == 0 && mb != U64_MAX) atomicMin(&st[FAR_MIN + cur], mb);
        if (me == 0) {
            st[FAR_SIZE + nxt] = 0;  // read by the previous split, before the barriers since
            st[FAR_MIN + nxt] = U64_MAX;
        }
        grid.sync();
        // (2) the window [low, low + NB): slot j holds the first bucket >= low congruent to j
        u64 low = ld_relaxed(&st[FAR_MIN + cur]);
        if (me < NB) {
            int j = (int)me;
            u64 bj = low + (((u64)j - low) & (NB - 1));
            st[count_at(j)] = 0;
            st[tail_at(j)] = 0;
            st[head_at(j)] = 0;
            st[AVAIL + j] = (epoch_of(bj) << EPOCH_SHIFT) | CNT_BIAS;
        }
        if (me == 0) {
            st[LOW] = low;
            st[PHASE_DONE] = 0;
            st[HI] = low;
        }
        grid.sync();
        // (3) split: vertices in the window to their rings, the others (and those a full ring refuses) kept
        s.mark = phase + 1;
        s.farList = keep;
        s.farSize = &st[FAR_SIZE + nxt];
        long long limit = ((long long)size + threads - 1) / threads * threads;  // same trip count in a warp
        for (long long i = me; i < limit; i += threads) {
            bool valid = i < (long long)size;
            int v = valid ? ldcg(&list[i]) : 0;  // written by other blocks last phase: not through L1
            u64 b = valid ? c.bucket(ld_relaxed(&dist[v])) : U64_MAX;
            bool inWindow = valid && b < low + NB;
            u64 group = inWindow ? b : U64_MAX;
            unsigned peers = __match_any_sync(FULL_MASK, group);
            int leader = __ffs(peers) - 1;
            u64 rank = (u64)__popc(peers & lanes_below()), gsize = (u64)__popc(peers);
            int j = slot_of(b);
            u64 p = 0;
            if (inWindow && lane_id() == leader) p = atomicAdd(&st[tail_at(j)], gsize);
            p = __shfl_sync(FULL_MASK, p, leader);
            u64 fit = p >= c.ringCap ? 0 : (c.ringCap - p < gsize ? c.ringCap - p : gsize);
            bool fits = inWindow && rank < fit;
            if (fits) rings[((u64)j << ringLog) + p + rank] = (u64)v << 32;
            if (inWindow && lane_id() == leader && fit > 0) {
                atomicMax(&st[HI], b);
                atomicAdd(&st[count_at(j)], fit);
                atomicAdd(&st[AVAIL + j], fit);
            }
            s.ringed += __popc(__ballot_sync(FULL_MASK, fits));
            bool kept = valid && !fits;
            if (kept) farMark[v] = s.mark;
            unsigned km = __ballot_sync(FULL_MASK, kept);
            if (km != 0) {
                int kl = __ffs(km) - 1;
                u64 base = 0;
                if (lane_id() == kl) base = atomicAdd(s.farSize, (u64)__popc(km));
                base = __shfl_sync(FULL_MASK, base, kl);
                if (kept) keep[base + __popc(km & lanes_below())] = v;
            }
        }
        grid.sync();
        // (4) asynchronous phase
        long long w = global_warp();
        if (w == 0) {
            manager(c, retired);
        } else if (workers <= 0 || w <= workers) {
            s.locHead = s.locN = s.outHead = s.outN = 0;
            s.guard = NO_GUARD;
            s.held = 0;
            s.hi = 0;
            worker(c, s, buf);
        }
        grid.sync();
    }
    if (me == 0) {
        ctr[ASYNC_PHASES] = (u64)phase;
        if (seeds == nullptr) ctr[ASYNC_CLEAR] = ldcg(&ctr[ASYNC_REACHED]);  // final: the loop ended at a barrier
    }
    if (lane_id() == 0) {
        u64 t[10] = {0, retired, s.items, s.stale, s.relaxed, s.ringed, s.farred, s.overflow, s.pieces, s.claims};
        for (int i = 1; i < 10; i++)
            if (t[i] != 0) atomicAdd(&ctr[i], t[i]);
    }
}

}  // namespace

// Entry points: sssp_async_<form> from one source (parent: n ints the run resets where the last run reached, for
// sssp.cu's listed parents pass; reached: n ints, the list above; fresh: reset all n instead); sssp_async_slack_<form>
// the same on a slack-form copy, with one more argument, the live arcs per row (DeviceCsr.live).
#define FROM_SOURCE(NAME, W, LIVE_PARAM, LIVE)                                                                         \
    extern "C" __global__ void __launch_bounds__(BLOCK_THREADS, 2)                                                     \
    NAME(const int* __restrict__ row, const int* __restrict__ col, const typename W::type* __restrict__ wt, int n,     \
         u64* dist, u64* rings, int* far, int* farMark, u64* state, u64* ctr, int source, u64 delta, int ringLog,      \
         int ahead, int local, int batch, int piece, int check, int workers, int clear, int* parent, int* reached,     \
         int fresh LIVE_PARAM) {                                                                                       \
        async_sssp<W>(row, col, wt, n, dist, rings, far, farMark, state, ctr, source, delta, ringLog, ahead, local,    \
                      batch, piece, check, workers, clear, nullptr, LIVE, parent, reached, fresh);                     \
    }

// Seeded runs (sssp_repair.cu's settle step): dist already holds an upper bound for every vertex (the keys of a standing
// tree after its invalidated part was reset and pulled), far list 0 holds the vertices whose key was lowered (farMark
// 0, every other farMark -1) and *seeds their count. The launch then relaxes from those vertices only, to the same
// least fixed point (the correctness argument above needs nothing else: every lowered vertex is expanded). `unit`:
// every arc counts 1 (BFS hops), the weights are not read (pass any int array of one entry per arc, e.g. the columns).
#define SEEDED(NAME, W, LIVE_PARAM, LIVE)                                                                              \
    extern "C" __global__ void __launch_bounds__(BLOCK_THREADS, 2)                                                     \
    NAME(const int* __restrict__ row, const int* __restrict__ col, const typename W::type* __restrict__ wt, int n,     \
         u64* dist, u64* rings, int* far, int* farMark, u64* state, u64* ctr, const u64* seeds, u64 delta,             \
         int ringLog, int ahead, int local, int batch, int piece, int check, int workers, int clear LIVE_PARAM) {      \
        async_sssp<W>(row, col, wt, n, dist, rings, far, farMark, state, ctr, 0, delta, ringLog, ahead, local, batch,  \
                      piece, check, workers, clear, seeds, LIVE, nullptr, nullptr, 0);                                 \
    }

#define SLACK , const int* __restrict__ live
FROM_SOURCE(sssp_async_i32, IntWeights, , nullptr)
FROM_SOURCE(sssp_async_f64, DoubleWeights, , nullptr)
SEEDED(sssp_async_seeded_i32, IntWeights, , nullptr)
SEEDED(sssp_async_seeded_f64, DoubleWeights, , nullptr)
SEEDED(sssp_async_seeded_unit, UnitWeights, , nullptr)
FROM_SOURCE(sssp_async_slack_i32, SlackRows<IntWeights>, SLACK, live)
FROM_SOURCE(sssp_async_slack_f64, SlackRows<DoubleWeights>, SLACK, live)
SEEDED(sssp_async_seeded_slack_i32, SlackRows<IntWeights>, SLACK, live)
SEEDED(sssp_async_seeded_slack_f64, SlackRows<DoubleWeights>, SLACK, live)
SEEDED(sssp_async_seeded_slack_unit, SlackRows<UnitWeights>, SLACK, live)
#undef SLACK
#undef SEEDED
#undef FROM_SOURCE
