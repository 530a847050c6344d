package org.frontiergraph.kernels.bfs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * CPU engine BFS: direction-optimizing BFS (Beamer, Asanović, Patterson, "Direction-Optimizing Breadth-First
 * Search", SC 2012), following gapbs {@code src/bfs.cc}.
 *
 * <p>Top-down steps expand a queue frontier and claim each newly found vertex by compare-and-set on its parent.
 * When the frontier's outgoing arcs exceed the unexplored arcs / {@link #ALPHA}, the search switches to bottom-up
 * steps: every unvisited vertex scans its incoming arcs for a parent in a bitmap frontier, stopping at the first
 * one (and, unlike gapbs, only when the frontier's arcs also exceed vertexCount / {@link #BETA}, since a bottom-up step
 * costs a pass over all vertices). It switches back once the frontier shrinks below vertexCount / {@link #BETA}. Both kinds of step run in
 * parallel on the common fork-join pool when the step has enough work ({@link #PARALLEL_MIN_WORK} arcs or
 * vertices) and run sequentially otherwise (high-diameter road graphs have thousands of small levels).
 * Bottom-up steps on a directed graph read {@link CsrGraph#transpose()}, built once and cached on the graph.
 *
 * <p>Hop counts equal {@link BfsReference}'s; parents may differ but satisfy {@link BfsVerifier}'s rules.
 */
public final class CpuBfs {
    /** Switch to bottom-up when frontier arcs > unexplored arcs / ALPHA (gapbs default). */
    static final int ALPHA = 15;
    /** Switch back to top-down when the frontier has fewer than vertexCount / BETA vertices (gapbs default). */
    static final int BETA = 18;
    /** Below this many arcs (top-down) or vertices (bottom-up) a step runs on the calling thread. */
    static final int PARALLEL_MIN_WORK = 1 << 15;
    /** Frontier vertices per parallel top-down task. */
    private static final int TOP_DOWN_GRAIN = 1 << 10;
    /** 64-bit words of vertices per parallel bottom-up task. */
    private static final int BOTTOM_UP_GRAIN_WORDS = 1 << 8;

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private CpuBfs() {}

    public static BfsResult run(CsrGraph g, int source) {
        long t0 = System.nanoTime();
        Search s = new Search(g, source);
        s.run();
        return new BfsResult(source, s.hops, s.parents, Timing.since(t0));
    }

    /** More than one core: parallel streams then run on the caller and the common pool's workers. */
    private static boolean parallel() {
        return Runtime.getRuntime().availableProcessors() > 1;
    }

    /** The state of one search: results, the queue frontier and the counters of the direction heuristic. */
    private static final class Search {
        final CsrGraph g;
        final int n;
        final int[] off, col;
        final int[] hops, parents;
        int[] queue, next;
        int queueSize;

        Search(CsrGraph g, int source) {
            this.g = g;
            this.n = g.vertexCount();
            this.off = g.rowOffsets();
            this.col = g.columns();
            this.hops = new int[n];
            this.parents = new int[n];
            Arrays.fill(hops, BfsResult.UNREACHED);
            Arrays.fill(parents, BfsResult.UNREACHED);
            parents[source] = source;
            hops[source] = 0;
            queue = new int[Math.max(1, n)];
            next = new int[Math.max(1, n)];
            queue[0] = source;
            queueSize = 1;
        }

        void run() {
            long edgesToCheck = g.arcCount();
            long scout = g.degree(queue[0]);
            int depth = 0;
            while (queueSize > 0) {
                // gapbs's test, plus a floor: a bottom-up step costs at least a pass over all n vertices, so a
                // small frontier never pays for it (road graphs meet the first test in their last few levels)
                if (scout > edgesToCheck / ALPHA && scout > n / BETA) {
                    CsrGraph in = g.transpose();
                    long[] front = queueToBitmap();
                    long[] curr = new long[front.length];
                    long awake = queueSize, oldAwake;
                    do {
                        oldAwake = awake;
                        awake = bottomUpStep(in, front, curr, depth);
                        depth++;
                        long[] t = front; front = curr; curr = t;
                    } while (awake >= oldAwake || awake > n / BETA);
                    bitmapToQueue(front);
                    scout = 1;
                } else {
                    edgesToCheck -= scout;
                    scout = scout >= PARALLEL_MIN_WORK && parallel() ? topDownParallel(depth) : topDownStep(depth);
                    depth++;
                }
            }
        }

        /** Expands the queue; returns the out-degree sum of the new frontier. */
        long topDownStep(int depth) {
            int out = 0;
            long scout = 0;
            for (int i = 0; i < queueSize; i++) {
                int u = queue[i];
                for (int e = off[u], end = off[u + 1]; e < end; e++) {
                    int v = col[e];
                    if (parents[v] < 0) {
                        parents[v] = u;
                        hops[v] = depth + 1;
                        next[out++] = v;
                        scout += off[v + 1] - off[v];
                    }
                }
            }
            swapQueues(out);
            return scout;
        }

        long topDownParallel(int depth) {
            int tasks = (queueSize + TOP_DOWN_GRAIN - 1) / TOP_DOWN_GRAIN;
            int[][] found = new int[tasks][];
            int[] counts = new int[tasks];
            long[] scouts = new long[tasks];
            IntStream.range(0, tasks).parallel().forEach(t -> {
                int lo = t * TOP_DOWN_GRAIN, hi = Math.min(queueSize, lo + TOP_DOWN_GRAIN);
                int[] buf = new int[256];
                int cnt = 0;
                long scout = 0;
                for (int i = lo; i < hi; i++) {
                    int u = queue[i];
                    for (int e = off[u], end = off[u + 1]; e < end; e++) {
                        int v = col[e];
                        if (parents[v] < 0 && INTS.compareAndSet(parents, v, BfsResult.UNREACHED, u)) {
                            hops[v] = depth + 1;
                            if (cnt == buf.length) buf = Arrays.copyOf(buf, cnt * 2);
                            buf[cnt++] = v;
                            scout += off[v + 1] - off[v];
                        }
                    }
                }
                found[t] = buf;
                counts[t] = cnt;
                scouts[t] = scout;
            });
            int out = 0;
            long scout = 0;
            for (int t = 0; t < tasks; t++) {
                System.arraycopy(found[t], 0, next, out, counts[t]);
                out += counts[t];
                scout += scouts[t];
            }
            swapQueues(out);
            return scout;
        }

        /** One bottom-up step from {@code front} into {@code nextBits}; returns the size of the new frontier. */
        long bottomUpStep(CsrGraph in, long[] front, long[] nextBits, int depth) {
            int words = nextBits.length;
            if (n >= PARALLEL_MIN_WORK && parallel()) {
                int tasks = (words + BOTTOM_UP_GRAIN_WORDS - 1) / BOTTOM_UP_GRAIN_WORDS;
                return IntStream.range(0, tasks).parallel().mapToLong(t -> bottomUpWords(in, front, nextBits, depth,
                        t * BOTTOM_UP_GRAIN_WORDS, Math.min(words, (t + 1) * BOTTOM_UP_GRAIN_WORDS))).sum();
            }
            return bottomUpWords(in, front, nextBits, depth, 0, words);
        }

        /** Bottom-up over the vertices of bitmap words [w0, w1): each word is written by one task only. */
        long bottomUpWords(CsrGraph in, long[] front, long[] nextBits, int depth, int w0, int w1) {
            int[] inOff = in.rowOffsets(), inCol = in.columns();
            long awake = 0;
            for (int w = w0; w < w1; w++) {
                long bits = 0;
                int vEnd = Math.min(n, (w + 1) << 6);
                for (int v = w << 6; v < vEnd; v++) {
                    if (parents[v] >= 0) continue;
                    for (int e = inOff[v], end = inOff[v + 1]; e < end; e++) {
                        int u = inCol[e];
                        if ((front[u >>> 6] & (1L << u)) != 0) {
                            parents[v] = u;
                            hops[v] = depth + 1;
                            bits |= 1L << v;
                            awake++;
                            break;
                        }
                    }
                }
                nextBits[w] = bits;
            }
            return awake;
        }

        long[] queueToBitmap() {
            long[] bits = new long[(n + 63) >>> 6];
            for (int i = 0; i < queueSize; i++) {
                int v = queue[i];
                bits[v >>> 6] |= 1L << v;
            }
            return bits;
        }

        void bitmapToQueue(long[] bits) {
            int out = 0;
            for (int w = 0; w < bits.length; w++) {
                long b = bits[w];
                while (b != 0) {
                    queue[out++] = (w << 6) + Long.numberOfTrailingZeros(b);
                    b &= b - 1;
                }
            }
            queueSize = out;
        }

        private void swapQueues(int size) {
            int[] t = queue; queue = next; next = t;
            queueSize = size;
        }
    }
}
