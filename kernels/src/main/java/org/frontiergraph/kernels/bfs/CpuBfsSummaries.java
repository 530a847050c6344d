package org.frontiergraph.kernels.bfs;

import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * BFS SUMMARY answers for a batch of sources on the CPU engine. One source: {@link CpuBfs} (parallel within the
 * search). Several: the sources are spread over the cores, each searched by a plain sequential queue BFS that keeps
 * only what a summary needs (a level per vertex, stamped with the search's number so the arrays are reused without
 * clearing). Hop counts are BFS levels, so the summaries equal those of {@link BfsReference}'s answers.
 */
public final class CpuBfsSummaries {
    private CpuBfsSummaries() {}

    public static BfsSummaries run(CsrGraph g, int[] sources) {
        long t0 = System.nanoTime();
        int k = sources.length;
        if (k == 1) {
            BfsResult r = CpuBfs.run(g, sources[0]);
            return BfsSummaries.of(r);
        }
        long[] reached = new long[k];
        int[] max = new int[k];
        IntStream.range(0, k).parallel().forEach(i -> {
            Scratch s = SCRATCH.get().fit(g.vertexCount());
            long r = s.search(g, sources[i]);
            reached[i] = r >>> 32;
            max[i] = (int) r;
        });
        return new BfsSummaries(sources.clone(), reached, max, Timing.since(t0));
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** One thread's arrays: the queue and each vertex's stamp (the search that reached it). */
    private static final class Scratch {
        int[] queue = new int[0], stamp = new int[0];
        int search;

        Scratch fit(int n) {
            if (stamp.length < n) {
                queue = new int[n];
                stamp = new int[n];
                search = 0;
            }
            if (++search == Integer.MAX_VALUE) {   // stamps wrap: start over with clean arrays
                java.util.Arrays.fill(stamp, 0);
                search = 1;
            }
            return this;
        }

        /** Reached count (high 32 bits) and largest level (low 32 bits) of a BFS from {@code source}. */
        long search(CsrGraph g, int source) {
            int[] off = g.rowOffsets(), col = g.columns();
            int me = search;
            stamp[source] = me;
            queue[0] = source;
            int head = 0, tail = 1, level = 0;
            while (head < tail) {
                int end = tail;   // this level is queue[head..end)
                for (; head < end; head++) {
                    int u = queue[head];
                    for (int a = off[u], e = off[u + 1]; a < e; a++) {
                        int v = col[a];
                        if (stamp[v] != me) {
                            stamp[v] = me;
                            queue[tail++] = v;
                        }
                    }
                }
                if (tail > end) level++;
            }
            return ((long) tail << 32) | level;
        }
    }
}
