package org.frontiergraph.worker.registry;

import java.util.Locale;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * The share of the JVM heap this worker's graphs may take ({@code frontier.heap-budget-fraction} of the maximum heap),
 * and whether one more graph version fits in it. A version is checked before anything is allocated for it: when
 * its first chunk arrives (by the sizes its header declares) and again before it is built. The check counts what
 * the registry holds (graphs, pending snapshots), not what the garbage collector happens to have freed, so it gives
 * the same answer when the partition is replayed.
 */
public final class HeapBudget {
    private final long limitBytes;
    private final String origin;
    /** Heap set aside whatever the graphs: answers in hand and their encoded copies, the Kafka clients' buffers. */
    private volatile java.util.function.LongSupplier fixedReserve = () -> 0;
    /** Heap reserved by standing answers (subscriptions), beside the graphs. */
    private final java.util.concurrent.atomic.AtomicLong standing = new java.util.concurrent.atomic.AtomicLong();

    public HeapBudget(long limitBytes, String origin) {
        this.limitBytes = limitBytes;
        this.origin = origin;
    }

    /** {@code fraction} of the maximum heap of this JVM. */
    public static HeapBudget ofHeap(double fraction) {
        long max = Runtime.getRuntime().maxMemory();
        return new HeapBudget((long) (max * fraction), String.format(Locale.ROOT,
                "frontier.heap-budget-fraction %.2f of the %s heap", fraction, mb(max)));
    }

    public long limitBytes() { return limitBytes; }

    /**
     * Heap that building a version of {@code vertices} vertices from {@code edges} edges takes at its peak, its
     * snapshot's chunks included, whatever its weights: {@link CsrAssembly#peakBytes(long, long, boolean)} (the chunks,
     * 16 bytes an edge at most, beside the CSR being laid out; at most 1.5 times the CSR of 16 bytes an arc and 4 a
     * vertex that it gives, or 8 a vertex in the wide form that more than 2^31 - 8 arcs take: kron26, 2^26 vertices
     * and 2^30 undirected edges, 48.0 GB at the peak for a graph of 34.9 GB). A bound, not a measurement: parallel edges
     * and self-loops only make the real graph smaller, and integral weights (4 bytes) or none (all 1) make the chunks
     * smaller.
     */
    public static long buildBytes(long vertices, long edges, boolean directed) {
        return CsrAssembly.peakBytes(vertices, edges, directed);
    }

    /**
     * Heap that a structural update of a graph, to {@code vertices} vertices and {@code edges} edges, takes while its
     * next CSR is merged beside the current one: 40 bytes an edge, 32 a vertex and 16 an arc (a bound on the merge's
     * change lists, counts and new arrays).
     */
    public static long mergeBytes(long vertices, long edges, boolean directed) {
        long arcs = directed ? edges : 2 * edges;
        return 40 * edges + 32 * (vertices + 1) + 16 * arcs;
    }

    /**
     * Heap a loaded graph holds beside its CSR of {@code csrBytes} for the caches its queries build (counted from its
     * load on, so a query never finds the heap taken): the transpose of a directed graph (its CSR again) and the
     * undirected edge list MST reads (16 bytes an edge).
     */
    public static long cacheBytes(long csrBytes, long edges, boolean directed) {
        return (directed ? csrBytes : 0) + 16 * edges;
    }

    /**
     * Heap set aside whatever the graphs by a worker of this configuration: answers in hand and their encoded copies
     * (twice {@code frontier.max-batch-answer-bytes}), the producer's buffer, a fetch's records.
     */
    public static long alwaysReserved(FrontierConfig config) {
        return 2 * config.getMaxBatchAnswerBytes() + config.getOutputBufferBytes() + config.getConsumerFetchBytes();
    }

    /** Sets what is reserved whatever the graphs (read at every check: it may follow the configuration). */
    public void reserveAlways(java.util.function.LongSupplier bytes) {
        this.fixedReserve = bytes;
    }

    /** Heap set aside whatever the graphs: answers in hand, their encoded copies, the producer's buffer. */
    public long fixedBytes() {
        return fixedReserve.getAsLong();
    }

    /** Heap reserved by standing answers. */
    public long standingBytes() {
        return standing.get();
    }

    /**
     * Reserves {@code bytes} for a standing answer when they fit beside the {@code held} bytes of graphs and pending
     * snapshots, the fixed reserve and the standing answers reserved so far.
     */
    public boolean tryReserveStanding(long bytes, long held) {
        while (true) {
            long now = standing.get();
            if (bytes > limitBytes - fixedBytes() - held - now) return false;
            if (standing.compareAndSet(now, now + bytes)) return true;
        }
    }

    public void releaseStanding(long bytes) {
        standing.addAndGet(-bytes);
    }

    /** @throws RejectedException GRAPH_TOO_LARGE unless {@code need} more bytes fit beside the {@code held} ones */
    public void require(String what, long need, long held) {
        long fixed = fixedBytes(), answers = standing.get();
        if (need > limitBytes - held - fixed - answers) {
            throw new RejectedException(ErrorCode.GRAPH_TOO_LARGE, what + " needs about " + mb(need)
                    + " of heap; this worker's budget is " + mb(limitBytes) + " (" + origin + "), of which "
                    + mb(held) + " are held by its graphs and pending snapshots, " + mb(answers) + " by standing answers and "
                    + mb(fixed) + " set aside for answers in flight and the Kafka clients' buffers (docs/operations.md, \"Memory model\")");
        }
    }

    /** {@code bytes} as megabytes, one decimal, for messages. */
    public static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
