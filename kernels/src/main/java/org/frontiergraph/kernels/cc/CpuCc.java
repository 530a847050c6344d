package org.frontiergraph.kernels.cc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * CPU engine CC: Afforest (Sutton, Ben-Nun, Barak, "Optimizing Parallel Graph Connectivity Computation via Subgraph
 * Sampling", IPDPS 2018), as gapbs's {@code cc.cc} implements it, on the common fork-join pool.
 *
 * <p>{@code comp[v]} is a parent pointer that only points to smaller ids ({@link #link} hooks the larger root under
 * the smaller with a compare-and-set), so after the last compression every vertex holds its component's smallest
 * vertex: the canonical labels, with no renaming pass. Steps: (1) {@link #NEIGHBOR_ROUNDS} sampling rounds, each
 * linking every vertex to its next neighbour, then a compression; (2) the most frequent label among
 * {@link #SAMPLES} random vertices is taken for the giant component, and the rest of the arcs are linked except
 * those of vertices already in it (on an undirected graph an arc leaving the giant component is linked from its
 * other end); (3) a final compression. A directed graph has no in-arcs to link from the other end without a
 * transpose, so there every vertex links its remaining out-arcs (weak connectivity: each arc joins its ends
 * whatever its direction), which is still one pass over the arcs.
 */
public final class CpuCc {
    /** Neighbours of each vertex linked before the giant component is sampled (gapbs's default). */
    static final int NEIGHBOR_ROUNDS = 2;
    /** Vertices sampled to find the giant component (gapbs: 1024). */
    static final int SAMPLES = 1024;
    /** Vertices per parallel task. */
    private static final int CHUNK = 4096;
    private static final long SEED = 20260101L;
    private static final VarHandle COMP = MethodHandles.arrayElementVarHandle(int[].class);

    private CpuCc() {}

    public static CcResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        int[] comp = labels(g);
        return CcResult.of(comp, Timing.since(t0));
    }

    /** The canonical labels of {@code g} (the smallest vertex id of each vertex's component). */
    static int[] labels(CsrGraph g) {
        int n = g.vertexCount();
        int[] rows = g.rowOffsets(), cols = g.columns();
        int[] comp = new int[n];
        int tasks = (n + CHUNK - 1) / CHUNK;
        chunks(tasks).forEach(t -> {
            for (int v = t * CHUNK, end = Math.min(n, v + CHUNK); v < end; v++) comp[v] = v;
        });
        for (int r = 0; r < NEIGHBOR_ROUNDS; r++) {
            final int round = r;
            chunks(tasks).forEach(t -> {
                for (int u = t * CHUNK, end = Math.min(n, u + CHUNK); u < end; u++) {
                    int i = rows[u] + round;
                    if (i < rows[u + 1]) link(u, cols[i], comp);
                }
            });
            compress(comp, tasks);
        }
        int giant = n == 0 ? -1 : frequent(comp);
        boolean skip = !g.directed();
        chunks(tasks).forEach(t -> {
            for (int u = t * CHUNK, end = Math.min(n, u + CHUNK); u < end; u++) {
                if (skip && comp[u] == giant) continue;
                for (int i = rows[u] + NEIGHBOR_ROUNDS, e = rows[u + 1]; i < e; i++) link(u, cols[i], comp);
            }
        });
        compress(comp, tasks);
        return comp;
    }

    private static IntStream chunks(int tasks) {
        IntStream s = IntStream.range(0, tasks);
        return tasks > 1 ? s.parallel() : s;
    }

    /** Joins the trees of u and v: the larger root under the smaller (gapbs's Link). */
    static void link(int u, int v, int[] comp) {
        int p1 = comp[u], p2 = comp[v];
        while (p1 != p2) {
            int high = Math.max(p1, p2), low = Math.min(p1, p2);
            int pHigh = comp[high];
            if (pHigh == low) return;
            if (pHigh == high && COMP.compareAndSet(comp, high, high, low)) return;
            p1 = comp[comp[high]];
            p2 = comp[low];
        }
    }

    /** Every pointer to its root. */
    private static void compress(int[] comp, int tasks) {
        int n = comp.length;
        chunks(tasks).forEach(t -> {
            for (int v = t * CHUNK, end = Math.min(n, v + CHUNK); v < end; v++) {
                while (comp[v] != comp[comp[v]]) comp[v] = comp[comp[v]];
            }
        });
    }

    /** The most frequent label among {@link #SAMPLES} seeded random vertices. */
    private static int frequent(int[] comp) {
        SplittableRandom random = new SplittableRandom(SEED);
        int[] sample = new int[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) sample[i] = comp[random.nextInt(comp.length)];
        java.util.Arrays.sort(sample);
        int best = sample[0], bestRun = 0;
        for (int i = 0, j; i < SAMPLES; i = j) {
            for (j = i; j < SAMPLES && sample[j] == sample[i]; j++) { }
            if (j - i > bestRun) { bestRun = j - i; best = sample[i]; }
        }
        return best;
    }
}
