// Standing shortest-path and BFS trees repaired on the device after a batch of edge changes, exactly: KickStarter's
// trimming (Vora, Gupta, Xu, "KickStarter: Fast and Accurate Computations on Streaming Graphs via Trimmed
// Approximations", ASPLOS 2017) followed by a relaxation from the affected region, as RisGraph does (Feng et al.,
// "RisGraph: A Real-Time Streaming System for Evolving Graphs to Support Sub-millisecond Per-update Analysis at
// Millions Ops/s", SIGMOD 2021). The device form of TreeRepair.java, whose javadoc has the exactness argument;
// launched by DeviceTrees.java.
//
// A tree is keys[] (sssp_keys.cuh's keys: integer distances, the bits of double distances, or hop counts under
// UnitWeights; INF unreached) and parent[] (the source for itself, -1 unreached), n entries each. A group of trees of
// one key form is repaired by three launches, the first and the last cooperative and shared by the whole group: each
// tree takes its own slice of the grid's blocks (Span), its arrays from a RepairTree, and every loop whose length
// depends on the data runs until no tree of the group has work left (GroupCounter), so all blocks meet the same grid
// barriers; a group costs the barriers of its deepest tree, not the sum over its trees:
//  repair_prepare_*: (0) the keys the repair works on copied from the tree's (its keys and parents stay the old ones
//     until finish: the snapshot the DELTA compares with); (1) roots: a changed arc t->h that
//     the tree uses (parent[h] == t) and that no longer gives h its key (removed, or key[t] + w > key[h]) marks h;
//     (2) subtrees: level by level from the roots (children: out-arcs x->y with parent[y] == x) for up to
//     SHALLOW_LEVELS levels, then, for deeper ones, pointer jumping over the parent array, which marks every vertex
//     with a marked ancestor in about log2(depth) rounds of one pass over the vertices each (a road graph's
//     shortest-path trees are thousands of arcs deep); (3) reset: marked vertices become unreached; when more than
//     maxInvalid are, every vertex does and the source alone seeds the settle (a recompute); (4) pull: each marked
//     vertex takes the best key over its in-arcs from unmarked vertices (undirected: its own row; directed: every
//     unmarked row pushes along its arcs into marked heads, one pass over the arcs, as the device holds no
//     transpose); (5) seed: the head of a changed arc t->h from an unmarked t takes key[t] + w where that is smaller.
//     Every vertex whose key was set in (4) or lowered in (5) is appended once to sssp_async.cu's far list 0. (6)
//     shift (integer and hop keys; `passes` of it, the host's frontier.trees.shift-passes): an unmarked vertex lowered
//     in (5) takes its old subtree down by as much (pointer jumping), and one pass over the arcs of those vertices
//     lists the heads it lowers; each further pass does the same from the heads the last one listed.
//  sssp_async_seeded_*: relaxes from those vertices to the least fixed point (strict improvements only).
//  repair_finish_*: (a) a vertex needs a parent when it was marked or its key changed; (b) its candidates are its
//     in-arcs u->v with key[u] < key[v] and key[u] + w == key[v]: the old parent when it is one, else the smallest u;
//     (c) a vertex with a finite key and no candidate is an orphan (every tight in-arc comes from a vertex of the
//     same key: zero weights, or sums that round): in rounds, each takes a tight in-arc from a vertex anchored in an
//     earlier round (round 0: every vertex but the orphans; on undirected graphs the warp that finds a vertex's
//     candidates sets its round). Then the DELTA: the vertices whose key or parent differs from the tree's old ones,
//     ascending (each block counts a contiguous range, then writes it at its offset), as (key, vertex << 32 | parent)
//     pairs appended to an arena that a group of trees shares (the tree's start and count in its counters), and
//     those keys and parents written into the tree.
//
// Exactness, as TreeRepair's: every key is at least the sum (sssp_keys.cuh's add, the host's double addition) along
// some path of the new graph (set from one, or an old value above one: unmarked vertices keep intact tree paths that
// lighter arcs only shorten), and afterwards no arc improves any key (marked vertices pulled from every unmarked
// in-neighbour, changed arcs seeded, every lowered vertex expanded by the settle), so the keys are the least fixed
// point: Dijkstra's distances bit for bit. Parents: a vertex that kept its key and was not marked keeps its parent,
// whose arc is still tight (its tail was not marked, its key did not rise, and a lower one would have lowered the
// child); every other vertex gets a parent of strictly smaller key, or (an orphan) one of its own key anchored in an
// earlier round. A parent cycle needs equal keys all round, so it holds kept parents and adoptions only; kept parents
// stay among kept vertices (a kept vertex's kept parent is kept: a re-parented one's key fell below the child's) and
// formed a tree before, and adoptions lead to earlier rounds, down to a kept vertex or one whose parent has a smaller
// key: no cycle. Pads of the slack layout (self-loops of weight PAD, see graph.cu) never count: a pad's head is its
// own tail.
#include "frontier.cuh"
#include "sssp_keys.cuh"

// Counter slots (u64, REPAIR_COUNTERS per tree), mirrored by DeviceTrees on the host
enum RepairCounter : int {
    REPAIR_ROOTS = 0,      // changed tree arcs that broke (vertices marked in step 1)
    REPAIR_INVALID = 1,    // vertices marked (roots and their subtrees)
    REPAIR_SEEDS = 2,      // vertices in far list 0 (read by sssp_async_seeded_* as the list's size)
    REPAIR_RECOMPUTE = 3,  // 1: more than maxInvalid marked, recomputed from the source; 2: a parent cycle, the same
    REPAIR_ROUNDS = 4,     // pointer-jumping rounds
    REPAIR_ORPHANS = 5,    // vertices with a finite key and no candidate of smaller key (then adopted, step c')
    REPAIR_CHANGED = 6,    // vertices whose key or parent changed (the DELTA's length)
    REPAIR_BASE = 7,       // the DELTA's first pair in the arena
    REPAIR_NEED = 8,       // vertices that needed a parent
    REPAIR_ACTIVE = 9,     // 3 slots, round % 3: vertices still jumping (prepare), adopted (finish)
    REPAIR_ADOPTED = 12,   // orphans adopted (the rest, REPAIR_ORPHANS - REPAIR_ADOPTED, go to the host)
    REPAIR_LEVEL = 13,     // 3 slots, level % 3: vertices marked in that level of the subtrees' walk
    REPAIR_SHIFT_ROOTS = 16,  // warps that found a root of step 6's pass (cleared between passes)
    REPAIR_SHIFTED = 17,   // vertices lowered with their subtree's root in step 6
    REPAIR_COUNTERS = 20
};

// Group-wide counts (u64 slots of busy, GROUP_COUNTERS): a loop goes on while a tree of the group still works
enum GroupCounter : int {
    GROUP_ROOTS = 0,     // warps that marked a root (step 1)
    GROUP_LEVEL = 1,     // 3 slots, level % 3: warps that marked a vertex in that level of the subtrees' walk
    GROUP_JUMPERS = 4,   // trees that jump pointers
    GROUP_JUMP = 5,      // 3 slots, round % 3: warps still jumping
    GROUP_ADOPT = 8,     // 3 slots, round % 3: warps that adopted an orphan
    GROUP_ORPHANS = 11,  // warps that found an orphan
    GROUP_SHIFTERS = 12, // warps that found a root of step 6
    GROUP_SHIFT = 13,    // 3 slots, round % 3: warps still jumping in step 6
    GROUP_COUNTERS = 16
};

// One tree of a group: device pointers only (DeviceTrees writes REPAIR_TREE_WORDS of them a tree); the source apart.
struct RepairTree {
    u64* keys;       // the tree's keys: the old ones until finish writes the changed ones (prepare's snapshot)
    u64* work;       // the keys the repair works on: copied from keys in prepare, settled, compared in finish
    int* parent;     // the tree's parents: the old ones until finish writes the changed ones
    int* mark;       // prepare: invalidated; finish: needs a parent
    int* anc;        // prepare: ancestors while jumping; finish: parent candidates
    int* list;       // prepare: the invalidated vertices; finish: adoption rounds
    int* far;        // the settle's seed list (its size: ctr[REPAIR_SEEDS])
    int* farMark;    // the settle's marks (0: listed, -1 not)
    u64* ctr;        // REPAIR_COUNTERS
};

using namespace frontier;

namespace {

constexpr int NO_CANDIDATE = 0x7fffffff;
// Levels of the subtrees walked one by one before pointer jumping takes over (a round of it costs about three levels,
// and a road graph's deep subtrees take 9 to 10 rounds: H100, USA-road-d.NY)
constexpr int SHALLOW_LEVELS = 32;
// Pointer-jumping rounds after which a tree still jumping has a cycle in its parents: a forest of fewer than 2^31
// vertices is done in about 33. Such a tree (corrupt: no repair or patch should leave one) is recomputed from its
// source instead of jumping for ever (REPAIR_RECOMPUTE 2, which the host reports).
constexpr int MAX_JUMP_ROUNDS = 64;
constexpr int OLD_PARENT = -1;  // the old parent is a candidate (it wins)

// A changed arc's weight in the tree's form, negative when the arc is gone.
template <typename T>
__device__ __forceinline__ bool absent(T w) { return w < 0; }

__device__ __forceinline__ u64 warp_min(u64 x) {
    for (int o = WARP / 2; o > 0; o >>= 1) {
        u64 y = __shfl_down_sync(FULL_MASK, x, o);
        x = y < x ? y : x;
    }
    return __shfl_sync(FULL_MASK, x, 0);
}

// Appends v for every lane with take (one atomic per warp). The whole warp calls it.
__device__ __forceinline__ void append(bool take, int v, int* out, u64* count) {
    unsigned m = __ballot_sync(FULL_MASK, take);
    if (m == 0) return;
    int leader = __ffs(m) - 1;
    u64 base = 0;
    if (lane_id() == leader) base = atomicAdd(count, (u64)__popc(m));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (take) out[base + __popc(m & lanes_below())] = v;
}

// The far list of the settle: v once (farMark 0: listed).
__device__ __forceinline__ void seed(int v, int* far, int* farMark, u64* ctr) {
    if (atomicExch(&farMark[v], 0) != 0) far[atomicAdd(&ctr[REPAIR_SEEDS], 1ull)] = v;
}

// Counts the warp once in *c when a lane has b (the whole warp calls it).
__device__ __forceinline__ void count_warp(bool b, u64* c) {
    if (__any_sync(FULL_MASK, b) && lane_id() == 0) atomicAdd(c, 1ull);
}

// A tree's share of the grid: blocks [first, first + blocks), tree = blockIdx.x * trees / gridDim.x (the host
// launches at least one block a tree). Its loops stride over the slice as a one-tree launch's over the grid.
struct Span {
    int tree, first, blocks, block;
    long long me, threads;
    __device__ __forceinline__ long long warp() const { return me / WARP; }
    __device__ __forceinline__ long long warps() const { return threads / WARP; }
};

__device__ __forceinline__ Span span_of(int trees) {
    Span s;
    s.tree = (int)((long long)blockIdx.x * trees / gridDim.x);
    s.first = (int)(((long long)s.tree * gridDim.x + trees - 1) / trees);
    s.blocks = (int)(((long long)(s.tree + 1) * gridDim.x + trees - 1) / trees) - s.first;
    s.block = blockIdx.x - s.first;
    s.me = (long long)s.block * blockDim.x + threadIdx.x;
    s.threads = (long long)s.blocks * blockDim.x;
    return s;
}

// The grid's first thread (writes the group's counts).
__device__ __forceinline__ bool grid_leader() { return blockIdx.x == 0 && threadIdx.x == 0; }

// Calls f(u, k) for every arc slot k of every row u < n with take(u), over the span: each warp takes 32 consecutive
// rows, a lane walks a short row alone, the warp walks a long one together.
template <typename Take, typename F>
__device__ __forceinline__ void each_arc(const int* __restrict__ row, int n, const Span& s, Take take, F f) {
    const int lane = lane_id();
    for (long long base = s.warp() * WARP; base < n; base += s.warps() * WARP) {
        int u = (int)base + lane;
        bool t = u < n && take(u);
        int st = t ? row[u] : 0, e = t ? row[u + 1] : 0;
        bool longRow = e - st > WARP;
        if (t && !longRow) {
            for (int k = st; k < e; k++) f(u, k);
        }
        unsigned m = __ballot_sync(FULL_MASK, longRow);
        while (m != 0) {
            int l = __ffs(m) - 1;
            m &= m - 1;
            int xs = __shfl_sync(FULL_MASK, st, l), xe = __shfl_sync(FULL_MASK, e, l);
            for (int k = xs + lane; k < xe; k += WARP) f((int)base + l, k);
        }
    }
}

// Sum over the block (every thread gets it).
__device__ __forceinline__ long long block_sum(long long x) {
    __shared__ long long partial[WARPS_PER_BLOCK];
    for (int o = WARP / 2; o > 0; o >>= 1) x += __shfl_down_sync(FULL_MASK, x, o);
    if (lane_id() == 0) partial[threadIdx.x / WARP] = x;
    __syncthreads();
    long long sum = 0;
    for (int i = 0; i < WARPS_PER_BLOCK; i++) sum += partial[i];
    __syncthreads();
    return sum;
}

// (6) shift, for the exact key forms (integers, hops): a vertex h lowered in (5) that is not marked lowers its whole
// old subtree by as much. The tree path below h is intact (an arc of it that rose or went marked its head in (1), and
// one that fell only shortens it), so old key[v] - (old key[h] - key[h]) is the length of a path of the new graph to
// every vertex v below h, and v takes it from its nearest such ancestor (a root), found by pointer jumping as in (2):
// anc[v] climbs the tree and never passes a root; -1: no root above, -(h + 2): the root is h. Then one pass relaxes
// the arcs of the vertices below a root and seeds the heads it lowers, so the settle starts from the edge of the
// subtrees instead of walking them level by level (a road graph's are thousands of levels deep). Up to `passes`
// passes: the heads a pass seeded are the next pass's roots (an arc the tree did not use lowered h, and the vertices it
// reaches through h carry their own old subtrees down). Keys stay at or above a path's length, and every vertex whose
// key fell either had its arcs relaxed after its last fall or is on the settle's list, so the settle still reaches the
// least fixed point and the answer is as exact as without the step. Doubles are left out: a rounded sum along a path
// need not be old - old + new.
template <typename W>
__device__ void shift(const int* __restrict__ row, const int* __restrict__ col, const typename W::type* __restrict__ wt,
                      int n, const Span& s, const RepairTree& T, int source, bool skip, int passes, u64* busy) {
    cg::grid_group grid = cg::this_grid();
    u64* const keys = T.work;
    int* const anc = T.anc;
    u64* const ctr = T.ctr;
    const long long me = s.me, threads = s.threads;
    grid.sync();   // (5)'s keys
    long long from = 0, to = 0;   // the far list's entries the last pass seeded: this pass's roots
    for (int pass = 0; pass < passes; pass++) {
        bool found = false;
        for (long long v = me; !skip && v < n; v += threads) {
            int p = T.parent[v];
            int a = p;
            if (v == source || p < 0 || ldcg(&T.mark[v])) {
                a = -1;
            } else if (pass == 0 && ldcg(&keys[v]) < T.keys[v]) {   // lowered in (5): only (5) changed it so far
                a = -((int)v + 2);
                found = true;
            }
            anc[v] = a;
        }
        if (pass > 0) {
            grid.sync();   // every anc set before the roots are
            for (long long i = from + me; !skip && i < to; i += threads) {
                int h = ldcg(&T.far[i]);
                if (h != source && T.parent[h] >= 0 && !ldcg(&T.mark[h])) {   // reached before: an old key
                    anc[h] = -(h + 2);
                    found = true;
                }
            }
        }
        if (pass == 0 && me < 3) ctr[REPAIR_ACTIVE + me] = 0;   // the rounds' counts ((2)'s jumping used them)
        count_warp(found, &ctr[REPAIR_SHIFT_ROOTS]);
        count_warp(found, &busy[GROUP_SHIFTERS]);
        grid.sync();
        const bool roots = !skip && ldcg(&ctr[REPAIR_SHIFT_ROOTS]) > 0;   // the same in every thread of the tree
        if (ldcg(&busy[GROUP_SHIFTERS]) == 0) return;   // the same for the whole grid: no barrier below
        from = (long long)ldcg(&ctr[REPAIR_SEEDS]);   // no seed is added until this pass relaxes
        bool jumping = roots;
        for (int r = 0; r < MAX_JUMP_ROUNDS; r++) {   // a tree still jumping after that keeps its keys: upper bounds
            if (me == 0) ctr[REPAIR_ACTIVE + (r + 1) % 3] = 0;  // last read two rounds ago
            if (grid_leader()) busy[GROUP_SHIFT + (r + 1) % 3] = 0;
            bool active = false;
            for (long long v = me; jumping && v < n; v += threads) {
                int a = ldcg(&anc[v]);
                if (a < 0) continue;
                int b = ldcg(&anc[a]);   // a's root, -1, or a pointer further up that passes no root
                anc[v] = b;
                active |= b >= 0;
            }
            if (__any_sync(FULL_MASK, active) && lane_id() == 0) {
                atomicAdd(&ctr[REPAIR_ACTIVE + r % 3], 1ull);
                atomicAdd(&busy[GROUP_SHIFT + r % 3], 1ull);
            }
            grid.sync();
            if (jumping && ldcg(&ctr[REPAIR_ACTIVE + r % 3]) == 0) jumping = false;
            if (ldcg(&busy[GROUP_SHIFT + r % 3]) == 0) break;   // the same for all
        }
        u64 lowered = 0;
        for (long long v = me; roots && v < n; v += threads) {
            int a = ldcg(&anc[v]);
            if (a > -2 || a == -((int)v + 2)) continue;
            int h = -a - 2;
            u64 k = T.keys[v] - (T.keys[h] - ldcg(&keys[h]));   // old keys: v's is at least h's
            if (k < ldcg(&keys[v])) {
                keys[v] = k;
                lowered++;
            }
        }
        if (lowered > 0) atomicAdd(&ctr[REPAIR_SHIFTED], lowered);
        grid.sync();
        // the next pass's counts start from 0 (every read of them was before this barrier)
        if (me < 3) ctr[REPAIR_ACTIVE + me] = 0;
        if (me == 0) ctr[REPAIR_SHIFT_ROOTS] = 0;
        if (grid_leader()) {
            busy[GROUP_SHIFTERS] = 0;
            for (int i = 0; i < 3; i++) busy[GROUP_SHIFT + i] = 0;
        }
        if (roots) {
            each_arc(row, n, s, [&](int u) { return ldcg(&anc[u]) <= -2; }, [&](int u, int k) {
                int y = col[k];
                if (y == u) return;   // pads of the slack layout
                u64 d = W::add(ldcg(&keys[u]), wt[k]);
                if (d < ldcg(&keys[y]) && d < atomicMin(&keys[y], d)) seed(y, T.far, T.farMark, ctr);
            });
        }
        grid.sync();
        to = (long long)ldcg(&ctr[REPAIR_SEEDS]);
    }
}

template <typename W>
__device__ void prepare(const int* __restrict__ row, const int* __restrict__ col,
                        const typename W::type* __restrict__ wt, int n, int directed,
                        const RepairTree* __restrict__ group, const int* __restrict__ sources, int trees,
                        const int* __restrict__ tails, const int* __restrict__ heads,
                        const typename W::type* __restrict__ arcWeight, int arcs, long long maxInvalid, u64* busy,
                        int shiftPasses) {
    cg::grid_group grid = cg::this_grid();
    const Span s = span_of(trees);
    const RepairTree T = group[s.tree];
    const int source = sources[s.tree];
    u64* const keys = T.work;
    int* const parent = T.parent;
    int* const mark = T.mark;
    int* const list = T.list;
    u64* const ctr = T.ctr;
    const long long me = s.me, threads = s.threads;
    // (0) the working copy of the keys (the tree's keys and parents stay as they were: the snapshot)
    for (long long v = me; v < n; v += threads) {
        keys[v] = T.keys[v];
        mark[v] = 0;
        T.farMark[v] = -1;
    }
    if (me < REPAIR_COUNTERS) ctr[me] = 0;
    if (blockIdx.x == 0 && threadIdx.x < GROUP_COUNTERS) busy[threadIdx.x] = 0;
    grid.sync();
    // (1) roots: tree arcs that no longer give their head its key
    bool found = false;
    for (long long i = me; i < arcs; i += threads) {
        int t = tails[i], h = heads[i];
        if (t == h || h == source || parent[h] != t) continue;
        typename W::type w = arcWeight[i];
        u64 kt = keys[t];
        if ((absent(w) || kt == W::INF || W::add(kt, w) > keys[h]) && atomicExch(&mark[h], 1) == 0) {
            list[atomicAdd(&ctr[REPAIR_ROOTS], 1ull)] = h;
            found = true;
        }
    }
    count_warp(found, &busy[GROUP_ROOTS]);
    grid.sync();
    const long long limit = ((long long)n + threads - 1) / threads * threads;  // same trip count in a warp
    const long long roots = (long long)ldcg(&ctr[REPAIR_ROOTS]);
    // (2) subtrees, level by level from the roots while they are shallow (a few barriers for a small subtree): the
    // children of x are its out-arcs x->y with parent[y] == x, and every marked vertex is listed once (the roots
    // first). The group walks while a tree's walk grew in the last level (a tree done walks an empty range).
    long long start = 0, end = roots;
    for (int level = 0; level < SHALLOW_LEVELS; level++) {
        if (ldcg(&busy[level == 0 ? GROUP_ROOTS : GROUP_LEVEL + (level - 1) % 3]) == 0) break;  // the same for all
        u64* count = &ctr[REPAIR_LEVEL + level % 3];
        if (me == 0) ctr[REPAIR_LEVEL + (level + 1) % 3] = 0;  // last read two levels ago
        if (grid_leader()) busy[GROUP_LEVEL + (level + 1) % 3] = 0;
        bool grew = false;
        for (long long i = s.warp(); i < end - start; i += s.warps()) {
            int x = ldcg(&list[start + i]);
            for (int k = row[x] + lane_id(); k < row[x + 1]; k += WARP) {
                int y = col[k];
                if (y != x && parent[y] == x && atomicExch(&mark[y], 1) == 0) {
                    list[end + atomicAdd(count, 1ull)] = y;
                    grew = true;
                }
            }
        }
        count_warp(grew, &busy[GROUP_LEVEL + level % 3]);
        grid.sync();
        start = end;
        end += (long long)ldcg(count);   // written in this level only: the same in every thread of the tree
    }
    const bool jump = roots > 0 && start < end;   // deeper subtrees than the walk reached
    if (roots > 0 && !jump) {   // every subtree walked: its vertices become unreached (finish gives their parents)
        for (long long i = me; i < end; i += threads) keys[ldcg(&list[i])] = W::INF;
        if (me == 0) ctr[REPAIR_INVALID] = (u64)end;
    }
    if (jump) {
        // deep subtrees: pointer jumping. anc[v] climbs the tree, halving the distance to the top each round; v is
        // marked when it meets a marked vertex. anc never jumps over a marked vertex (marked ones start the rounds,
        // and a vertex jumps only from an unmarked one), so exactly the descendants of roots are marked.
        for (long long v = me; v < n; v += threads) T.anc[v] = ldcg(&mark[v]) || v == source ? -1 : parent[v];
        if (me == 0) atomicAdd(&busy[GROUP_JUMPERS], 1ull);
    }
    grid.sync();
    bool cyclic = false;   // the same in every thread of the tree
    if (ldcg(&busy[GROUP_JUMPERS]) > 0) {   // rounds while a tree of the group still jumps
        bool jumping = jump;
        for (int r = 0;; r++) {
            if (me == 0) ctr[REPAIR_ACTIVE + (r + 1) % 3] = 0;  // last read two rounds ago
            if (grid_leader()) busy[GROUP_JUMP + (r + 1) % 3] = 0;
            bool active = false;
            if (jumping) {
                for (long long v = me; v < n; v += threads) {
                    if (ldcg(&mark[v])) continue;
                    int a = ldcg(&T.anc[v]);
                    if (a < 0) continue;
                    if (ldcg(&mark[a])) {
                        mark[v] = 1;
                        continue;
                    }
                    int b = ldcg(&T.anc[a]);
                    T.anc[v] = b;
                    active |= b >= 0;
                }
            }
            if (__any_sync(FULL_MASK, active) && lane_id() == 0) {
                atomicAdd(&ctr[REPAIR_ACTIVE + r % 3], 1ull);
                atomicAdd(&busy[GROUP_JUMP + r % 3], 1ull);
            }
            grid.sync();
            if (jumping && ldcg(&ctr[REPAIR_ACTIVE + r % 3]) == 0) {
                jumping = false;
                if (me == 0) ctr[REPAIR_ROUNDS] = (u64)(r + 1);
            }
            if (ldcg(&busy[GROUP_JUMP + r % 3]) == 0) break;
            if (r + 1 == MAX_JUMP_ROUNDS) {   // the same round in every thread: the whole group leaves the loop
                cyclic = jumping;
                break;
            }
        }
        // (3) reset: marked vertices become unreached, and are listed anew
        if (jump) {
            for (long long v = me; v < limit; v += threads) {
                bool m = v < n && ldcg(&mark[v]);
                if (m) keys[v] = W::INF;
                append(m, (int)v, list, &ctr[REPAIR_INVALID]);
            }
        }
    }
    grid.sync();
    const long long invalid = (long long)ldcg(&ctr[REPAIR_INVALID]);
    const bool recompute = invalid > maxInvalid || cyclic;
    if (recompute) {  // above the budget, or a parent cycle: recompute from the source (every vertex needs a parent)
        for (long long v = me; v < n; v += threads) {
            keys[v] = v == source ? 0 : W::INF;
            mark[v] = 1;
        }
        if (me == 0) {
            T.far[0] = source;
            T.farMark[source] = 0;
            ctr[REPAIR_SEEDS] = 1;
            ctr[REPAIR_RECOMPUTE] = cyclic ? 2 : 1;
        }
    }
    // (4) pull: marked vertices take their best key from unmarked in-neighbours
    const bool pull = !recompute && invalid > 0;
    if (!directed) {
        if (pull) {
            for (long long i = s.warp(); i < invalid; i += s.warps()) {
                int v = ldcg(&list[i]);
                u64 best = W::INF;
                for (int k = row[v] + lane_id(); k < row[v + 1]; k += WARP) {
                    int u = col[k];
                    if (ldcg(&mark[u])) continue;
                    u64 du = ldcg(&keys[u]);
                    if (du == W::INF) continue;
                    u64 c = W::add(du, wt[k]);
                    best = c < best ? c : best;
                }
                best = warp_min(best);
                if (lane_id() == 0 && best != W::INF) {
                    keys[v] = best;
                    seed(v, T.far, T.farMark, ctr);
                }
            }
        }
    } else {
        if (pull) {
            each_arc(row, n, s, [&](int u) { return !ldcg(&mark[u]) && ldcg(&keys[u]) != W::INF; }, [&](int u, int k) {
                int v = col[k];
                if (ldcg(&mark[v])) atomicMin(&keys[v], W::add(ldcg(&keys[u]), wt[k]));
            });
        }
        grid.sync();
        if (pull) {
            for (long long i = me; i < invalid; i += threads) {
                int v = ldcg(&list[i]);
                if (ldcg(&keys[v]) != W::INF) seed(v, T.far, T.farMark, ctr);
            }
        }
    }
    grid.sync();
    // (5) seed: heads of changed arcs that now offer a shorter path from an unmarked tail
    for (long long i = me; !recompute && i < arcs; i += threads) {
        int t = tails[i], h = heads[i];
        typename W::type w = arcWeight[i];
        if (t == h || absent(w) || ldcg(&mark[t])) continue;
        u64 dt = ldcg(&keys[t]);
        if (dt == W::INF) continue;
        u64 d = W::add(dt, w);
        if (d < ldcg(&keys[h]) && d < atomicMin(&keys[h], d)) seed(h, T.far, T.farMark, ctr);
    }
    if (W::EXACT_SHIFT && shiftPasses > 0) shift<W>(row, col, wt, n, s, T, source, recompute, shiftPasses, busy);
}

// The parent a vertex gets in finish: its candidate (the old parent, a tail, or none) where it needed one.
__device__ __forceinline__ int new_parent(int need, int cand, int parent) {
    return !need ? parent : cand == OLD_PARENT ? parent : cand == NO_CANDIDATE ? -1 : cand;
}

template <typename W>
__device__ void finish(const int* __restrict__ row, const int* __restrict__ col,
                       const typename W::type* __restrict__ wt, int n, int directed,
                       const RepairTree* __restrict__ group, const int* __restrict__ sources, int trees, u64* cursor,
                       u64* busy, int* blockCounts, u64* out) {
    cg::grid_group grid = cg::this_grid();
    const Span s = span_of(trees);
    const RepairTree T = group[s.tree];
    const int source = sources[s.tree];
    const u64* const keys = T.work;      // the settled keys (read only here)
    u64* const oldKeys = T.keys;         // the old ones, until (e) writes the changed ones
    int* const parent = T.parent;        // the old parents, until (e) writes the changed ones
    int* const need = T.mark;
    int* const cand = T.anc;
    int* const round = T.list;
    u64* const ctr = T.ctr;
    const long long me = s.me, threads = s.threads;
    const int lane = lane_id();
    // (a) which vertices need a parent (marked, or another key)
    u64 needed = 0;
    for (long long v = me; v < n; v += threads) {
        bool nd = v != source && (need[v] || keys[v] != oldKeys[v]);
        need[v] = nd;
        if (nd) {
            cand[v] = NO_CANDIDATE;
            needed++;
        }
    }
    if (needed > 0) atomicAdd(&ctr[REPAIR_NEED], needed);
    if (me < 3) ctr[REPAIR_ACTIVE + me] = 0;  // the adoption rounds' counts (prepare's jumping used them)
    if (blockIdx.x == 0 && threadIdx.x < 3) busy[GROUP_ADOPT + threadIdx.x] = 0;
    if (grid_leader()) busy[GROUP_ORPHANS] = 0;
    grid.sync();
    // (b) candidates: tight in-arcs from a strictly smaller key, the old parent first, else the smallest tail; and
    // (c) the rounds: a reached vertex without a candidate is an orphan (round NO_CANDIDATE), every other one is
    // anchored (round 0: its parent chain leaves its key level through an arc of smaller key, or it is the source).
    // Undirected: a warp settles both for its 32 vertices; directed: the candidates come from every row, then (c).
    u64 orphans = 0;
    if (directed) {
        each_arc(row, n, s, [&](int u) { return keys[u] != W::INF; }, [&](int u, int k) {
            int v = col[k];
            if (!ldcg(&need[v])) return;
            u64 du = keys[u], dv = keys[v];
            if (du < dv && W::add(du, wt[k]) == dv) atomicMin(&cand[v], u == parent[v] ? OLD_PARENT : u);
        });
        grid.sync();
        for (long long v = me; v < n; v += threads) {
            int r = 0;
            if (ldcg(&need[v]) && ldcg(&cand[v]) == NO_CANDIDATE && keys[v] != W::INF) {
                r = NO_CANDIDATE;
                orphans++;
            }
            round[v] = r;
        }
    } else {
        for (long long base = s.warp() * WARP; base < n; base += s.warps() * WARP) {
            long long mine = base + lane;
            bool nd = mine < n && ldcg(&need[mine]);
            if (mine < n && !nd) round[mine] = 0;
            unsigned m = __ballot_sync(FULL_MASK, nd);
            while (m != 0) {
                int l = __ffs(m) - 1;
                m &= m - 1;
                int x = (int)base + l;
                u64 dx = keys[x];
                int op = parent[x];
                int best = NO_CANDIDATE;
                if (dx != W::INF) {
                    for (int k = row[x] + lane; k < row[x + 1]; k += WARP) {
                        int u = col[k];
                        u64 du = keys[u];
                        if (du < dx && W::add(du, wt[k]) == dx) {
                            int c = u == op ? OLD_PARENT : u;
                            best = c < best ? c : best;
                        }
                    }
                }
                best = __reduce_min_sync(FULL_MASK, best);
                if (lane == 0) {
                    cand[x] = best;
                    bool orphan = best == NO_CANDIDATE && dx != W::INF;
                    round[x] = orphan ? NO_CANDIDATE : 0;
                    orphans += orphan;
                }
            }
        }
    }
    if (orphans > 0) {
        atomicAdd(&ctr[REPAIR_ORPHANS], orphans);
        atomicAdd(&busy[GROUP_ORPHANS], 1ull);
    }
    grid.sync();
    // (c') adoption: an orphan's tight in-arcs all come from vertices of its own key (zero weights, or sums that
    // round). In round r it takes one from a vertex anchored in an earlier round (the old parent first, else the
    // smallest) as its candidate: links to earlier rounds only, so no cycle; and the orphans along a shortest path's
    // equal-key tail are anchored one round after another, so every orphan is adopted (one left is the host's, see
    // DeviceTrees). The group runs rounds while a tree adopted in the last one.
    if (ldcg(&busy[GROUP_ORPHANS]) > 0) {
        const u64 orphansFound = ldcg(&ctr[REPAIR_ORPHANS]);
        bool adopting = orphansFound > 0;
        u64 total = 0;   // the same in every thread of the tree: the rounds' counts, each read after its barrier
        for (int r = 1;; r++) {
            u64* adopted = &ctr[REPAIR_ACTIVE + r % 3];
            if (me == 0) ctr[REPAIR_ACTIVE + (r + 1) % 3] = 0;  // last read two rounds ago
            if (grid_leader()) busy[GROUP_ADOPT + (r + 1) % 3] = 0;
            u64 mine = 0;
            if (directed) {
                if (adopting) {
                    each_arc(row, n, s, [&](int u) { return ldcg(&round[u]) < r && keys[u] != W::INF; },
                             [&](int u, int k) {
                        int v = col[k];
                        if (v != u && ldcg(&round[v]) == NO_CANDIDATE && keys[u] == keys[v] && W::add(keys[u], wt[k]) == keys[v]) {
                            atomicMin(&cand[v], u == parent[v] ? OLD_PARENT : u);
                        }
                    });
                }
                grid.sync();
                if (adopting) {
                    for (long long v = me; v < n; v += threads) {
                        if (ldcg(&round[v]) != NO_CANDIDATE || ldcg(&cand[v]) == NO_CANDIDATE) continue;
                        round[v] = r;
                        mine++;
                    }
                }
            } else if (adopting) {
                for (long long base = s.warp() * WARP; base < n; base += s.warps() * WARP) {
                    long long own = base + lane;
                    unsigned m = __ballot_sync(FULL_MASK, own < n && ldcg(&round[own]) == NO_CANDIDATE);
                    while (m != 0) {
                        int l = __ffs(m) - 1;
                        m &= m - 1;
                        int x = (int)base + l;
                        u64 dx = keys[x];
                        int op = parent[x];
                        int best = NO_CANDIDATE;
                        for (int k = row[x] + lane; k < row[x + 1]; k += WARP) {
                            int u = col[k];
                            // a vertex adopted in this round reads r, an orphan NO_CANDIDATE: neither qualifies
                            if (u != x && ldcg(&round[u]) < r && keys[u] == dx && W::add(keys[u], wt[k]) == dx) {
                                int c = u == op ? OLD_PARENT : u;
                                best = c < best ? c : best;
                            }
                        }
                        best = __reduce_min_sync(FULL_MASK, best);
                        if (lane == 0 && best != NO_CANDIDATE) {
                            cand[x] = best;
                            round[x] = r;
                            mine++;
                        }
                    }
                }
            }
            if (mine > 0) {
                atomicAdd(adopted, mine);
                atomicAdd(&busy[GROUP_ADOPT + r % 3], 1ull);
            }
            grid.sync();
            if (adopting) {
                u64 now = ldcg(adopted);   // written in this round only (zeroed two rounds ahead)
                total += now;
                if (now == 0 || total == orphansFound) {
                    adopting = false;
                    if (me == 0) ctr[REPAIR_ADOPTED] = total;
                }
            }
            if (ldcg(&busy[GROUP_ADOPT + r % 3]) == 0) break;   // the same for all
        }
    }
    // (d) the changed vertices of this block's range of the tree (another key, or another parent), counted
    const long long chunk = ((long long)n + s.blocks - 1) / s.blocks;
    const long long lo = min((long long)n, (long long)s.block * chunk), hi = min((long long)n, lo + chunk);
    int count = 0;
    for (long long b = lo; b < hi; b += blockDim.x) {
        long long v = b + threadIdx.x;
        bool changed = false;
        if (v < hi) {
            int p = parent[v];
            changed = keys[v] != oldKeys[v] || new_parent(ldcg(&need[v]), ldcg(&cand[v]), p) != p;
        }
        count += __syncthreads_count(changed);
    }
    if (threadIdx.x == 0) blockCounts[blockIdx.x] = count;
    grid.sync();
    // (e) the DELTA: this block's offset in the tree's, the tree's place in the arena, then the pairs in vertex order;
    // the changed keys and parents written into the tree
    long long before = 0;
    for (int j = s.first + threadIdx.x; j < (int)blockIdx.x; j += blockDim.x) before += ldcg(&blockCounts[j]);
    before = block_sum(before);
    if (s.block == s.blocks - 1 && threadIdx.x == 0) {
        u64 total = (u64)(before + count);
        ctr[REPAIR_CHANGED] = total;
        ctr[REPAIR_BASE] = atomicAdd(cursor, total);
    }
    grid.sync();
    __shared__ int warpCount[WARPS_PER_BLOCK];
    long long at = (long long)ldcg(&ctr[REPAIR_BASE]) + before;
    const int w = threadIdx.x / WARP;
    for (long long b = lo; b < hi; b += blockDim.x) {
        long long v = b + threadIdx.x;
        bool changed = false;
        u64 k = 0;
        int p = 0;
        if (v < hi) {
            int old = parent[v];
            k = keys[v];
            p = new_parent(ldcg(&need[v]), ldcg(&cand[v]), old);
            changed = k != oldKeys[v] || p != old;
        }
        unsigned m = __ballot_sync(FULL_MASK, changed);
        if (lane == 0) warpCount[w] = __popc(m);
        __syncthreads();
        int below = 0, all = 0;
        for (int i = 0; i < WARPS_PER_BLOCK; i++) {
            if (i < w) below += warpCount[i];
            all += warpCount[i];
        }
        if (changed) {
            long long pos = at + below + __popc(m & lanes_below());
            out[2 * pos] = k;
            out[2 * pos + 1] = ((u64)v << 32) | (unsigned)p;
            oldKeys[v] = k;
            parent[v] = p;
        }
        at += all;
        __syncthreads();
    }
}

}  // namespace

#define REPAIR(SUFFIX, W)                                                                                              \
    extern "C" __global__ void __launch_bounds__(BLOCK_THREADS) repair_prepare_##SUFFIX(                               \
        const int* __restrict__ row, const int* __restrict__ col, const typename W::type* __restrict__ wt, int n,      \
        int directed, const RepairTree* __restrict__ group, const int* __restrict__ sources, int trees,                \
        const int* __restrict__ tails, const int* __restrict__ heads,                                                  \
        const typename W::type* __restrict__ arcWeight, int arcs, long long maxInvalid, u64* busy, int shiftPasses) {   \
        prepare<W>(row, col, wt, n, directed, group, sources, trees, tails, heads, arcWeight, arcs, maxInvalid, busy,  \
                   shiftPasses);                                                                                       \
    }                                                                                                                  \
    extern "C" __global__ void __launch_bounds__(BLOCK_THREADS) repair_finish_##SUFFIX(                                \
        const int* __restrict__ row, const int* __restrict__ col, const typename W::type* __restrict__ wt, int n,      \
        int directed, const RepairTree* __restrict__ group, const int* __restrict__ sources, int trees, u64* cursor,   \
        u64* busy, int* blockCounts, u64* out) {                                                                        \
        finish<W>(row, col, wt, n, directed, group, sources, trees, cursor, busy, blockCounts, out);                   \
    }
REPAIR(i32, IntWeights)
REPAIR(f64, DoubleWeights)
REPAIR(unit, UnitWeights)
#undef REPAIR


// A tree's keys moved to the graph's other weight form (its weights became fractional, or integral again):
// toDouble 1: integer keys to the bits of the same doubles (exact below 2^53, as DeviceCsr keeps them); 0: back.
extern "C" __global__ void repair_convert(u64* keys, int n, int toDouble) {
    const u64 doubleInf = DoubleWeights::INF;
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        u64 k = keys[v];
        if (toDouble) {
            keys[v] = k == U64_MAX ? doubleInf : (u64)__double_as_longlong((double)k);
        } else {
            keys[v] = k == doubleInf ? U64_MAX : (u64)__longlong_as_double((long long)k);
        }
    }
}

// A tree grown to n vertices: the old n0 entries copied, the new ones unreached (key inf, parent -1).
extern "C" __global__ void repair_grow(const u64* __restrict__ oldKeys, const int* __restrict__ oldParent, int n0,
                                       u64* keys, int* parent, int n, u64 inf) {
    for (long long v = global_thread(); v < n; v += grid_threads()) {
        keys[v] = v < n0 ? oldKeys[v] : inf;
        parent[v] = v < n0 ? oldParent[v] : -1;
    }
}

// A tree's entries at vertices[0, k) replaced (the host repaired its copy of the answer there): keys as two 32-bit
// halves each (little-endian), parents.
extern "C" __global__ void repair_patch(u64* keys, int* parent, const int* __restrict__ vertices,
                                        const unsigned* __restrict__ halves, const int* __restrict__ parents, int k) {
    for (long long i = global_thread(); i < k; i += grid_threads()) {
        int v = vertices[i];
        keys[v] = (u64)halves[2 * i] | ((u64)halves[2 * i + 1] << 32);
        parent[v] = parents[i];
    }
}
