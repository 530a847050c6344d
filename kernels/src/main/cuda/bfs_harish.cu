// Harish and Narayanan's BFS (paper 004, Algorithms 1-2): one thread per vertex, frontier F_a, visited X_a, cost
// C_a, a host loop that launches the kernel until the frontier is empty.
//
// One deviation, for correctness: 004's kernel clears and reads the same F_a it sets, and marks X_a only when a
// vertex is expanded, so a frontier vertex whose thread has not run yet can be re-costed to level + 1 by a
// neighbour of the same level, and a vertex discovered in this launch can be expanded in the same launch. Here the
// next frontier goes to a second array (the two swap every level) and X_a is set when a vertex is discovered:
// every writer of C_a[nid] then writes the same level + 1. parent[nid] is written by one of the discovering threads
// (each a valid parent: at hops level, with an arc to nid).
#include "seeds.cuh"

using namespace seeds;

extern "C" __global__ void harish_bfs_init(int n, int* F, int* Fnext, int* X, int* C, int* P, int source) {
    for (long long i = gtid(); i < n; i += gstride()) {
        bool s = i == source;
        F[i] = s;
        Fnext[i] = 0;
        X[i] = s;
        C[i] = s ? 0 : -1;
        P[i] = s ? source : -1;
    }
}

// Algorithm 2 on F (this level) writing Fnext (the next); *flag = 1 when some vertex joined Fnext.
extern "C" __global__ void harish_bfs_kernel(const int* __restrict__ V, const int* __restrict__ E, int n, int* F,
                                             int* Fnext, int* X, int* C, int* P, int* flag) {
    for (long long i = gtid(); i < n; i += gstride()) {
        int tid = (int)i;
        if (!F[tid]) continue;
        F[tid] = 0;
        int next = C[tid] + 1;
        bool any = false;
        for (int k = V[tid]; k < V[tid + 1]; k++) {
            int nid = E[k];
            if (!X[nid]) {
                X[nid] = 1;
                C[nid] = next;
                P[nid] = tid;
                Fnext[nid] = 1;
                any = true;
            }
        }
        if (any) *flag = 1;
    }
}
