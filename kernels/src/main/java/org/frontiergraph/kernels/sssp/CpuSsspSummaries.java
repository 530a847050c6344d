package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Spares;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * SSSP SUMMARY answers (reached count, largest distance) for a batch of sources on the CPU engine, each source a
 * sequential Dijkstra that keeps only what a summary needs, the sources spread over the cores (each thread claims the
 * next source when it is done with one).
 *
 * <p>Dijkstra settles vertices in nondecreasing distance, each once: the reached count is the number settled and the
 * largest distance the last one settled, so no distance array is read after the search, and no parent is kept. On
 * integral weights whose bound fits ({@link #bucketsFit}) the queue is Dial's: a ring of buckets, one per distance
 * modulo a power of two above the largest weight (every queued distance lies within one weight of the one being
 * settled), each bucket a list threaded through a pool of entries that settled ones go back to, and a bitmap of
 * non-empty buckets to skip empty runs. Distances are longs tagged with the search's number in their high bits
 * ({@link Scratch#tag}): an older search's value is larger than any of this one's, so a vertex this search has not
 * reached reads as unreached without the array being cleared, and a relaxation is one compare. Other graphs (fractional
 * weights, larger weights or distances) take {@link CpuSssp} and summarize its distances.
 *
 * <p>A relaxation has no branch: whether it improves is a coin toss on road graphs (about 40% of NY's arcs do), so the
 * new distance is a masked minimum, and every arc writes the next queue entry and links it into its bucket's head only
 * under the mask (an entry is taken when it improves, overwritten by the next arc otherwise). Entries are therefore not
 * recycled within a search: a search holds one per improvement (at most one an arc; NY: about 1.13 a vertex). A free
 * list recycled them before, but its head is a chain of dependent loads through every arc, which costs more than
 * the branch it would save (same harness: 23.6-27.5 ms against 19.1-21.0 for the branchy search).
 *
 * <p>Measured on NY (the 2-core development machine, thread CPU ms a source, same JVM, alternating): {@link CpuSssp}'s
 * radix heap plus the summary pass 45-54 ms and 3.4 MB allocated a source (load 9-11); the bucket search with a
 * branch on each relaxation 17.3-21.2 ms, branch-free 12.2-16.7 ms (load 7-12, 2026-11-28, six rounds of 20 seeded
 * sources); nothing allocated once a thread's scratch has grown.
 */
public final class CpuSsspSummaries {
    /** Largest weight bound for the bucket queue: its ring is the next power of two above it (4 MB of heads at most). */
    static final double MAX_BUCKET_WEIGHT = (1 << 20) - 1;
    /** Bits of a tagged distance that hold the distance; the bits above hold the search's tag. */
    static final int DISTANCE_BITS = 40;

    private CpuSsspSummaries() {}

    public static SsspSummaries run(CsrGraph g, int[] sources) {
        long t0 = System.nanoTime();
        int k = sources.length;
        long[] reached = new long[k];
        double[] max = new double[k];
        boolean buckets = bucketsFit(g);
        AtomicInteger next = new AtomicInteger();
        int threads = Math.min(k, ForkJoinPool.getCommonPoolParallelism() + 1);
        IntStream range = IntStream.range(0, threads);
        (threads > 1 ? range.parallel() : range).forEach(t -> {
            Scratch s = buckets ? Scratch.SPARES.take() : null;
            try {
                for (int i; (i = next.getAndIncrement()) < k; ) {
                    if (buckets) {
                        s.search(g, sources[i]);
                        reached[i] = s.reached;
                        max[i] = s.max;
                    } else {
                        double[] r = SsspSummaries.summarize(CpuSssp.run(g, sources[i]).distances());
                        reached[i] = (long) r[0];
                        max[i] = r[1];
                    }
                }
            } finally {
                if (s != null) Scratch.SPARES.give(s);
            }
        });
        return new SsspSummaries(sources.clone(), reached, max, Timing.since(t0));
    }

    /**
     * Whether the bucket search answers on {@code g}: integral weights (so distances are exact integers), a weight
     * bound up to {@link #MAX_BUCKET_WEIGHT}, and every distance (at most the bound times n - 1) below 2^40.
     */
    static boolean bucketsFit(CsrGraph g) {
        if (!g.integralWeights()) return false;
        double bound = g.weightBound();
        return bound <= MAX_BUCKET_WEIGHT && bound * Math.max(1, g.vertexCount()) < (double) (1L << DISTANCE_BITS);
    }

    /**
     * One thread's arrays for bucket searches, reused across searches, batches and graphs: taken from {@link #SPARES}
     * for a batch and given back after it ({@link Spares}: a worker grew and filled a new scratch, 10.5 MB on NY, every
     * batch when it was a thread-local).
     */
    static final class Scratch {
        static final Spares<Scratch> SPARES = new Spares<>(Scratch::new);

        private static final int EPOCH_BITS = 63 - DISTANCE_BITS;
        private static final long NEVER = Long.MAX_VALUE;
        private static final int NONE = -1;

        /** Per vertex: {@link #tag} | distance, for the search whose tag it carries; {@link #NEVER} at first. */
        private long[] dist = new long[0];
        /** Searches since {@link #dist} was last filled; tags count down from the top so that newer ones are smaller. */
        private int epoch;
        /** Per bucket: its first entry, or {@link #NONE}; every bucket is empty between searches. */
        private int[] head = new int[0];
        private long[] nonEmpty = new long[0];
        /**
         * The entries of the search's queue, in the order queued: each a vertex and the next entry of its bucket. Not
         * reused within a search (so one search holds as many as it queues: at most one an arc, about 1.1 a vertex on
         * road graphs), kept across searches.
         */
        private int[] entryVertex = new int[1024], entryNext = new int[1024];
        /** False while a search runs: one that threw leaves its buckets as they were, and the next starts over. */
        private boolean clean = true;
        long reached;
        double max;

        /** The high bits of this search's tagged distances. */
        private long tag() {
            return (long) ((1 << EPOCH_BITS) - 1 - epoch) << DISTANCE_BITS;
        }

        private void fit(int n, int ring) {
            if (dist.length < n || ++epoch == (1 << EPOCH_BITS) - 1) {
                if (dist.length < n) dist = new long[n];
                Arrays.fill(dist, NEVER);
                epoch = 1;
            }
            if (head.length < ring || !clean) {
                head = new int[Math.max(ring, head.length)];
                Arrays.fill(head, NONE);
                nonEmpty = new long[head.length >>> 6];
            }
        }

        /** Dial's Dijkstra from {@code source}: {@link #reached} and {@link #max} of its distances. */
        void search(CsrGraph g, int source) {
            int n = g.vertexCount();
            int ring = Math.max(64, Integer.highestOneBit((int) g.weightBound()) << 1);   // > every weight
            fit(n, ring);
            clean = false;
            int mask = ring - 1, words = ring >>> 6;
            int[] off = g.rowOffsets(), col = g.columns();
            double[] w = g.weights();
            long[] d = dist, bits = nonEmpty;
            int[] hd = head, ev = entryVertex, en = entryNext;
            long tag = tag();
            int pool = 1, live = 1;
            d[source] = tag;
            ev[0] = source;
            en[0] = NONE;
            hd[0] = 0;
            bits[0] |= 1;
            long cur = 0, settled = 0, last = 0;
            while (live > 0) {
                int b = (int) (cur & mask);
                int e = hd[b];
                if (e == NONE) {   // the next non-empty bucket in ring order (one exists: live > 0)
                    int wi = b >>> 6;
                    long word = bits[wi] & (-1L << b);
                    while (word == 0) word = bits[wi = (wi + 1) & (words - 1)];
                    cur += (((wi << 6) | Long.numberOfTrailingZeros(word)) - b) & mask;
                    continue;
                }
                int following = en[e];
                hd[b] = following;
                if (following == NONE) bits[b >>> 6] &= ~(1L << b);
                int u = ev[e];
                live--;
                long du = d[u];
                if (du != (tag | cur)) continue;   // stale: u was queued again nearer, and settled then
                settled++;
                last = cur;
                int a = off[u], end = off[u + 1];
                if (pool + (end - a) > ev.length) {   // each arc below writes entry `pool`, and takes it when it improves
                    int size = Math.max(2 * ev.length, pool + (end - a));
                    ev = entryVertex = Arrays.copyOf(ev, size);
                    en = entryNext = Arrays.copyOf(en, size);
                }
                for (; a < end; a++) {   // branch-free (class comment)
                    int v = col[a];
                    long dv = du + (long) w[a];
                    long old = d[v];
                    long diff = dv - old;   // both below 2^63: no overflow
                    long improves = diff >> 63;   // all ones when dv < old, else 0
                    d[v] = old + (diff & improves);
                    int nb = (int) (dv & mask);
                    int h = hd[nb];
                    ev[pool] = v;
                    en[pool] = h;
                    int take = (int) improves;
                    hd[nb] = h ^ ((h ^ pool) & take);
                    bits[nb >>> 6] |= (improves & 1L) << nb;
                    pool -= take;
                    live -= take;
                }
            }
            clean = true;
            reached = settled;
            max = last;
        }
    }
}
