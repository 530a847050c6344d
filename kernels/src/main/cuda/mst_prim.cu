// GPU Prim (paper 000, Wang, Huang, Guo): minimum spanning forest, one vertex per step, n steps.
//
// Graph: int2-packed compact adjacency list of the undirected graph underneath (000 Fig. 4):
//   A[v].x = degree, A[v].y = offset into B; B[a].x = target, B[a].y = weight key; BID[a] = undirected edge id.
// The weight key is the integer weight (integral weights in 0..2^31-1) or the rank of the weight among the distinct
// weights (any other doubles): either orders edges exactly as the weights do. The min-reduction key of an edge is
// (weightKey << 32 | edgeId), 64 bits, so ties are broken by edge id and the forest is the unique one (= Kruskal's).
//
// prim-gmr: the MST edge list R1 (tree-side vertex), R2 (vertex), R3 (64-bit key) by position; R3' = positions
// [k, n) is the current searching section. Each step: GMR (prim_gmr_kernel1, and prim_gmr_kernel2 when Kernel1 ran
// more than one block) finds the min key and its index, and the last kernel's thread 0 moves that entry to position k
// ("first position of the candidate list") and stores its vertex in C; prim_kernel3 reads C and compares-and-updates
// R3 for every arc C->n (the arcs of C, so all threads read C's contiguous adjacency, 000's "C->n, not n->C").
// pos[v] is v's position; v is in the tree when pos[v] < k. An all-INF section means the tree cannot grow: the
// entry with the smallest position starts a new tree (no edge), which makes the forest restart in each component.
//
// prim-naive: the same steps with vertex-indexed arrays and the minimum found by common GPU parallelisation instead
// of the primitive: every thread takes the min of its elements and atomicMin's it into one global word (no
// shared-memory tree, no section shrinking), then one thread adds the vertex.
#include <cstdint>

typedef unsigned long long u64;

namespace {
constexpr u64 INF_KEY = ~0ull;
constexpr int THREADS = 256;  // Kernel.BLOCK on the host

// (key, index) lexicographic min
__device__ __forceinline__ void take(u64& k, int& i, u64 k2, int i2) {
    if (k2 < k || (k2 == k && i2 < i)) { k = k2; i = i2; }
}

// shared-memory tree reduction of one block's (key, index) pairs; result in sk[0], si[0]
__device__ __forceinline__ void block_reduce(u64* sk, int* si) {
    int t = threadIdx.x;
    for (int s = THREADS / 2; s > 32; s >>= 1) {
        if (t < s) {
            u64 k = sk[t]; int i = si[t];
            take(k, i, sk[t + s], si[t + s]);
            sk[t] = k; si[t] = i;
        }
        __syncthreads();
    }
    if (t < 32) {
        u64 k = sk[t]; int i = si[t];
        take(k, i, sk[t + 32], si[t + 32]);
        for (int off = 16; off > 0; off >>= 1) {
            u64 k2 = __shfl_down_sync(0xffffffffu, k, off);
            int i2 = __shfl_down_sync(0xffffffffu, i, off);
            take(k, i, k2, i2);
        }
        if (t == 0) { sk[0] = k; si[0] = i; }
    }
}

// thread 0: moves the winner at position idx to position k, records C
__device__ __forceinline__ void add_edge(int k, int idx, int* R1, int* R2, u64* R3, int* pos, int* C) {
    int vw = R2[idx];
    if (idx != k) {
        int vk = R2[k];
        int r1 = R1[idx]; u64 r3 = R3[idx];
        R1[idx] = R1[k]; R2[idx] = vk; R3[idx] = R3[k];
        R1[k] = r1; R2[k] = vw; R3[k] = r3;
        pos[vk] = idx;
        pos[vw] = k;
    }
    *C = vw;
}
}  // namespace

extern "C" {

// R1 = -1, R2 = position, R3 = INF, pos = identity
__global__ void prim_init(int n, int* R1, int* R2, u64* R3, int* pos) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        R1[i] = -1; R2[i] = (int)i; R3[i] = INF_KEY; pos[i] = (int)i;
    }
}

// GMR Kernel1: global-memory reduction of R3[k..n) (grid-stride, any length), then shared-memory reduction per block.
// One block: the final result, and thread 0 adds the edge. Else T1[b], T2[b] per block for Kernel2.
__global__ void prim_gmr_kernel1(int k, int n, int* R1, int* R2, u64* R3, int* pos, int* C, u64* T1, int* T2) {
    __shared__ u64 sk[THREADS];
    __shared__ int si[THREADS];
    u64 best = INF_KEY; int bi = 0x7fffffff;
    for (int i = k + blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) take(best, bi, R3[i], i);
    sk[threadIdx.x] = best; si[threadIdx.x] = bi;
    __syncthreads();
    block_reduce(sk, si);
    if (threadIdx.x == 0) {
        if (gridDim.x == 1) add_edge(k, si[0], R1, R2, R3, pos, C);
        else { T1[blockIdx.x] = sk[0]; T2[blockIdx.x] = si[0]; }
    }
}

// GMR Kernel2: one block reduces Kernel1's `blocks` partial results (blocks <= MAX_BLOCKS) and adds the edge.
__global__ void prim_gmr_kernel2(int k, int blocks, int* R1, int* R2, u64* R3, int* pos, int* C, u64* T1, int* T2) {
    __shared__ u64 sk[THREADS];
    __shared__ int si[THREADS];
    u64 best = INF_KEY; int bi = 0x7fffffff;
    for (int i = threadIdx.x; i < blocks; i += THREADS) take(best, bi, T1[i], T2[i]);
    sk[threadIdx.x] = best; si[threadIdx.x] = bi;
    __syncthreads();
    block_reduce(sk, si);
    if (threadIdx.x == 0) add_edge(k, si[0], R1, R2, R3, pos, C);
}

// Kernel3: compare and update the MST edge list from the arcs C->n of the vertex C just added. k = the new
// section start (vertices with pos < k are in the tree).
__global__ void prim_kernel3(int k, const int2* A, const int2* B, const int* BID, int* R1, u64* R3,
                             const int* pos, const int* C) {
    int c = *C;
    int2 a = A[c];
    for (int j = blockIdx.x * THREADS + threadIdx.x; j < a.x; j += gridDim.x * THREADS) {
        int2 b = B[a.y + j];
        int p = pos[b.x];
        if (p < k) continue;
        u64 key = ((u64)(unsigned)b.y << 32) | (unsigned)BID[a.y + j];
        if (key < R3[p]) {
            R3[p] = key;  // each n appears once among C's arcs (simple undirected graph): no write conflict
            R1[p] = c;
        }
    }
}

// ---- prim-naive: vertex-indexed key[v], parent[v], inTree[v]; min by per-thread atomicMin into mins[0]
// (key) and mins[1] (smallest vertex not yet in the tree, for restarting in a new component).

__global__ void naive_init(int n, u64* key, int* parent, int* inTree, u64* mins) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        key[i] = INF_KEY; parent[i] = -1; inTree[i] = 0;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) { mins[0] = INF_KEY; mins[1] = INF_KEY; }
}

__global__ void naive_min(int n, const u64* key, const int* inTree, u64* mins) {
    u64 best = INF_KEY, free = INF_KEY;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        if (inTree[i]) continue;
        if (key[i] < best) best = key[i];
        if ((u64)i < free) free = (u64)i;
    }
    if (best != INF_KEY) atomicMin(&mins[0], best);
    if (free != INF_KEY) atomicMin(&mins[1], free);
}

// one thread: the vertex of the min key (the endpoint of its edge not in the tree) or, when every key is INF, the
// smallest vertex not in the tree (a new root). Resets mins for the next step. chosen[step] = edge id or -1.
__global__ void naive_add(int step, const int* eu, const int* ev, int* inTree, u64* mins, int* C, int* chosen) {
    u64 m = mins[0];
    int v;
    if (m != INF_KEY) {
        int id = (int)(unsigned)(m & 0xffffffffu);
        v = inTree[eu[id]] ? ev[id] : eu[id];
        chosen[step] = id;
    } else {
        v = (int)mins[1];
        chosen[step] = -1;
    }
    inTree[v] = 1;
    *C = v;
    mins[0] = INF_KEY; mins[1] = INF_KEY;
}

__global__ void naive_update(const int2* A, const int2* B, const int* BID, u64* key, int* parent, const int* inTree,
                             const int* C) {
    int c = *C;
    int2 a = A[c];
    for (int j = blockIdx.x * THREADS + threadIdx.x; j < a.x; j += gridDim.x * THREADS) {
        int2 b = B[a.y + j];
        if (inTree[b.x]) continue;
        u64 k = ((u64)(unsigned)b.y << 32) | (unsigned)BID[a.y + j];
        if (k < key[b.x]) { key[b.x] = k; parent[b.x] = c; }
    }
}

}  // extern "C"
