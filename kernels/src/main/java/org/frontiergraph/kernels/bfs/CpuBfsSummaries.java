package org.frontiergraph.kernels.bfs;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Spares;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * BFS SUMMARY answers for a batch of sources on the CPU engine. One source on a dense graph: {@link CpuBfs}
 * (direction-optimizing, parallel within the search). Several: {@link #bitParallel} where {@link #bitParallelPays}, else
 * {@link #perSource}, which also answers one source on a sparse graph (a road graph's thousands of small levels give
 * the parallel search nothing to share, and its four arrays of n ints a query are allocated and filled for nothing).
 * <ul>
 *   <li>{@link #perSource}: the sources spread over the cores, each searched by a plain sequential queue BFS that
 *       keeps only what a summary needs (a level per vertex, stamped with the search's number so the arrays are reused
 *       without clearing). Its inner loop has no branch on whether a vertex is new: on road graphs that branch is
 *       a coin toss, and without it a NY search took 3.8-5.4 ms instead of 5.9-8.5 (one core, four alternating runs,
 *       2026-11-26); on a grid, whose branches are predictable, it is slower (below).</li>
 *   <li>{@link #bitParallel}: the distinct sources, in vertex order (so that a pass holds sources near each other
 *       in the graph's layout), in passes of up to 64 ({@link CpuMultiSourceBfs}), the passes spread over the cores
 *       of the common fork-join pool: as few passes as 64 a pass allows, rounded up to a multiple of the cores (at
 *       most one a source), of nearly equal size.</li>
 * </ul>
 * The choice, measured on the 2-core development machine (2026-11-26, ms a source on one core; BfsSummariesBench
 * for the two cores): a bit-parallel pass shares a level's work only among searches that reach a vertex at the same
 * level. On graphs of mean out-degree {@link #DENSE_DEGREE} or more (Kronecker, email-Enron: a few levels) they
 * nearly all do: a pass of 8 sources took 1.4 ms a source on kron16 against 2.4 for a sequential BFS, one of 16 0.8
 * against 2.6 (email-Enron: 0.3 against 0.8), a pass of 4 tied on kron16. On road graphs (hundreds of levels) random
 * sources reach a vertex at distinct levels (a 64-source pass on NY expands 93% of what 64 searches do), and each
 * level's pass over the masks costs memory bandwidth that a single search, which stays near its frontier, does not
 * pay: a 64-source pass took 4.3 ms a source on NY (branch-free sequential 3.8-5.4), 1.8 on luxembourg_osm (1.1) and
 * 4.4-5.4 on a 512 x 512 grid (the branchy sequential search 2.6-3.8, branch-free 4.2-4.4). So: bit-parallel on
 * dense graphs when every core gets a pass of at least {@link #MIN_PASS} sources, sequential searches otherwise.
 * Hop counts are BFS levels, so the summaries equal those of {@link BfsReference}'s answers either way.
 */
public final class CpuBfsSummaries {
    /** Mean out-degree from which a graph counts as dense (few levels): {@link MultiSourceBfs}'s rule too. */
    static final int DENSE_DEGREE = 8;
    /** Sources a bit-parallel pass must hold, at least, for the batch to run bit-parallel. */
    static final int MIN_PASS = 8;

    private CpuBfsSummaries() {}

    public static BfsSummaries run(CsrGraph g, int[] sources) {
        if (sources.length == 1 && dense(g)) return BfsSummaries.of(CpuBfs.run(g, sources[0]));
        return bitParallelPays(g, sources.length, Runtime.getRuntime().availableProcessors())
                ? bitParallel(g, sources) : perSource(g, sources);
    }

    /** Whether {@code sources} run bit-parallel on {@code g} with {@code cores} cores (the class comment's rule). */
    static boolean bitParallelPays(CsrGraph g, int sources, int cores) {
        return dense(g) && sources >= MIN_PASS * cores;
    }

    /** Mean out-degree {@link #DENSE_DEGREE} or more: a few levels, where bottom-up steps and shared passes pay. */
    private static boolean dense(CsrGraph g) {
        return g.arcCount() >= (long) DENSE_DEGREE * g.vertexCount();
    }

    /** Each source its own sequential BFS, the sources spread over the cores. */
    public static BfsSummaries perSource(CsrGraph g, int[] sources) {
        long t0 = System.nanoTime();
        int k = sources.length;
        long[] reached = new long[k];
        int[] max = new int[k];
        // each thread claims the next source when it is done with one: a batch ends at most one search after its
        // last source began, whichever thread the machine's other work slows down (the common pool's splitting handed
        // each thread a fixed range of k / (4 x cores) searches, and the batch waited for the slowest range)
        AtomicInteger next = new AtomicInteger();
        int threads = Math.min(k, ForkJoinPool.getCommonPoolParallelism() + 1);
        IntStream range = IntStream.range(0, threads);
        (threads > 1 ? range.parallel() : range).forEach(t -> {
            Scratch s = Scratch.SPARES.take();
            try {
                for (int i; (i = next.getAndIncrement()) < k; ) {
                    long r = s.fit(g.vertexCount()).search(g, sources[i]);
                    reached[i] = r >>> 32;
                    max[i] = (int) r;
                }
            } finally {
                Scratch.SPARES.give(s);
            }
        });
        return new BfsSummaries(sources.clone(), reached, max, Timing.since(t0));
    }

    /**
     * The distinct sources in bit-parallel passes of up to 64 ({@link CpuMultiSourceBfs}), spread over the cores; a
     * repeated source is searched once. Counters {@code passes} and {@code levels} (of all passes together).
     */
    public static BfsSummaries bitParallel(CsrGraph g, int[] sources) {
        long t0 = System.nanoTime();
        int k = sources.length;
        int[] distinct = Arrays.stream(sources).distinct().sorted().toArray();   // near sources share a pass
        int d = distinct.length;
        Map<Integer, Integer> slotOf = new HashMap<>();
        for (int j = 0; j < d; j++) slotOf.put(distinct[j], j);
        long[] reachedOf = new long[d];
        int[] maxOf = new int[d];
        int[] first = passBounds(d, Runtime.getRuntime().availableProcessors());
        int passes = first.length - 1;
        // one pass's arrays per thread that runs passes, for this batch only (about 32 bytes a vertex each)
        ConcurrentLinkedQueue<CpuMultiSourceBfs> free = new ConcurrentLinkedQueue<>();
        IntStream.range(0, passes).parallel().forEach(p -> {
            CpuMultiSourceBfs pass = free.poll();
            if (pass == null) pass = new CpuMultiSourceBfs(g.vertexCount());
            pass.search(g, distinct, first[p], first[p + 1], reachedOf, maxOf);
            free.add(pass);
        });
        long levels = free.stream().mapToLong(p -> p.levels).sum();
        long[] reached = new long[k];
        int[] max = new int[k];
        for (int i = 0; i < k; i++) {
            int j = slotOf.get(sources[i]);
            reached[i] = reachedOf[j];
            max[i] = maxOf[j];
        }
        return new BfsSummaries(sources.clone(), reached, max,
                new Timing(System.nanoTime() - t0, 0, Map.of("passes", (long) passes, "levels", levels)));
    }

    /**
     * Where each pass of {@code count} distinct sources starts (and, last, where the last ends): the fewest passes of
     * up to {@link CpuMultiSourceBfs#PASS} rounded up to a multiple of {@code cores}, at most {@code count}, their
     * sizes differing by at most one.
     */
    static int[] passBounds(int count, int cores) {
        int needed = (count + CpuMultiSourceBfs.PASS - 1) / CpuMultiSourceBfs.PASS;
        int passes = Math.min(count, (needed + cores - 1) / cores * cores);
        int[] first = new int[passes + 1];
        for (int p = 0; p <= passes; p++) first[p] = (int) ((long) count * p / passes);
        return first;
    }

    /**
     * One thread's arrays: the queue (one slot more than the vertices: each arc writes its target after the queue's
     * end, and only a new vertex moves the end past it) and each vertex's stamp (the search that reached it). Taken
     * from {@link #SPARES} for a batch and given back after it, so they are reused across batches ({@link Spares}).
     */
    private static final class Scratch {
        static final Spares<Scratch> SPARES = new Spares<>(Scratch::new);

        int[] queue = new int[0], stamp = new int[0];
        int search;

        Scratch fit(int n) {
            if (stamp.length < n) {
                queue = new int[n + 1];   // search() writes one past the last vertex found
                stamp = new int[n];
                search = 0;
            }
            if (++search == Integer.MAX_VALUE) {   // stamps wrap: start over with clean arrays
                Arrays.fill(stamp, 0);
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
                    for (int a = off[u], e = off[u + 1]; a < e; a++) {   // branch-free (class comment)
                        int v = col[a];
                        int was = stamp[v];
                        stamp[v] = me;
                        queue[tail] = v;
                        tail += was != me ? 1 : 0;
                    }
                }
                if (tail > end) level++;
            }
            return ((long) tail << 32) | level;
        }
    }
}
