// Harish and Narayanan's two-kernel SSSP (paper 004, Algorithms 3-5): mask M_a, cost C_a, updating cost U_a, a host
// loop until the mask is empty. Kernel 1 relaxes the successors of masked vertices into U_a; kernel 2 moves
// improved U_a into C_a, masks those vertices and copies C_a back to U_a.
//
// harish_sssp_kernel1_*: the fix of paper 003 (section 4.3): U_a[nid] = atomicMin(U_a[nid], C_a[tid] + W_a).
// harish_sssp_kernel1_racy_*: 004 as published, "if (U_a[nid] > C_a[tid] + W_a) U_a[nid] = C_a[tid] + W_a" with
//   plain loads and stores: a write-after-write race (003's counterexample). For the reproduction harness only.
// Keys as in seeds.cuh (exact integers, or the bits of non-negative doubles).
#include "seeds.cuh"

using namespace seeds;

namespace {

template <typename W>
__device__ void init(int n, int* M, u64* C, u64* U, int source) {
    for (long long i = gtid(); i < n; i += gstride()) {
        bool s = i == source;
        M[i] = s;
        C[i] = s ? 0 : W::INF;
        U[i] = s ? 0 : W::INF;
    }
}

template <typename W, bool RACY>
__device__ void kernel1(const int* __restrict__ V, const int* __restrict__ E, const typename W::type* __restrict__ Wa,
                        int n, int* M, const u64* C, u64* U) {
    for (long long i = gtid(); i < n; i += gstride()) {
        int tid = (int)i;
        if (!M[tid]) continue;
        M[tid] = 0;
        u64 c = C[tid];
        for (int k = V[tid]; k < V[tid + 1]; k++) {
            int nid = E[k];
            u64 nd = W::add(c, Wa[k]);
            if (RACY) {
                volatile u64* u = U;
                if (u[nid] > nd) u[nid] = nd;
            } else {
                if (nd < U[nid]) atomicMin(&U[nid], nd);
            }
        }
    }
}

__device__ void kernel2(int n, int* M, u64* C, u64* U, int* flag) {
    bool any = false;
    for (long long i = gtid(); i < n; i += gstride()) {
        int tid = (int)i;
        u64 u = U[tid];
        if (C[tid] > u) {
            C[tid] = u;
            M[tid] = 1;
            any = true;
        }
        U[tid] = C[tid];
    }
    if (any) *flag = 1;
}

}  // namespace

extern "C" __global__ void harish_sssp_init_i32(int n, int* M, u64* C, u64* U, int source) {
    init<IntWeights>(n, M, C, U, source);
}
extern "C" __global__ void harish_sssp_init_f64(int n, int* M, u64* C, u64* U, int source) {
    init<DoubleWeights>(n, M, C, U, source);
}
extern "C" __global__ void harish_sssp_kernel1_i32(const int* __restrict__ V, const int* __restrict__ E,
                                                   const int* __restrict__ Wa, int n, int* M, const u64* C, u64* U) {
    kernel1<IntWeights, false>(V, E, Wa, n, M, C, U);
}
extern "C" __global__ void harish_sssp_kernel1_f64(const int* __restrict__ V, const int* __restrict__ E,
                                                   const double* __restrict__ Wa, int n, int* M, const u64* C,
                                                   u64* U) {
    kernel1<DoubleWeights, false>(V, E, Wa, n, M, C, U);
}
extern "C" __global__ void harish_sssp_kernel1_racy_i32(const int* __restrict__ V, const int* __restrict__ E,
                                                        const int* __restrict__ Wa, int n, int* M, const u64* C,
                                                        u64* U) {
    kernel1<IntWeights, true>(V, E, Wa, n, M, C, U);
}
extern "C" __global__ void harish_sssp_kernel1_racy_f64(const int* __restrict__ V, const int* __restrict__ E,
                                                        const double* __restrict__ Wa, int n, int* M, const u64* C,
                                                        u64* U) {
    kernel1<DoubleWeights, true>(V, E, Wa, n, M, C, U);
}
extern "C" __global__ void harish_sssp_kernel2(int n, int* M, u64* C, u64* U, int* flag) {
    kernel2(n, M, C, U, flag);
}
extern "C" __global__ void harish_sssp_parents_i32(const int* __restrict__ row, const int* __restrict__ col,
                                                   const int* __restrict__ wt, int n, const u64* __restrict__ dist,
                                                   int* parent, int source) {
    tight_parents<IntWeights>(row, col, wt, n, dist, parent, source);
}
extern "C" __global__ void harish_sssp_parents_f64(const int* __restrict__ row, const int* __restrict__ col,
                                                   const double* __restrict__ wt, int n,
                                                   const u64* __restrict__ dist, int* parent, int source) {
    tight_parents<DoubleWeights>(row, col, wt, n, dist, parent, source);
}
