// Device-side changes to a resident graph (GpuResidentGraph, DeviceCsr, GpuMst): a batch of k re-weights is one
// small upload of (index, value) pairs and one launch of a scatter, instead of a copy of every weight; a structural
// batch moves the untouched rows on the device and writes the rebuilt ones from one packed upload (MergePlan).
// And the reverse for answers (Gather): the values of an answer at a few vertices (a TARGETS query), gathered on
// the device so that only they are copied back.
#include <cstdint>

// dst[index[i]] = value[i] for i < count. Indices may repeat only with equal values (the host sends the
// current weight of every arc it lists), so the order of the writes does not matter.
extern "C" __global__ void scatter_i32(int32_t* __restrict__ dst, const int32_t* __restrict__ index,
                                       const int32_t* __restrict__ value, int count) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dst[index[i]] = value[i];
    }
}

extern "C" __global__ void scatter_f64(double* __restrict__ dst, const int32_t* __restrict__ index,
                                       const double* __restrict__ value, int count) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dst[index[i]] = value[i];
    }
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
