package org.frontiergraph.kernels.graph;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds a {@link CsrGraph} straight from a snapshot's chunks, chunk by chunk as they arrive, with the storage policy
 * and the result of {@link GraphBuilder} (same offsets, columns, weights, edge ids, integralWeights), in memory
 * proportional to the graph: no edge list, no sort keys beside it.
 *
 * <p>Each chunk is {@linkplain #decode decoded} into compact arrays as it arrives (0-based ids; weights as int32 when
 * every weight of the chunk is an integer below 2^31, none when every weight is 1, doubles otherwise) and its arcs are
 * counted into the rows' degrees at once, on the caller's thread ({@link #add(int, Chunk)}) or on an executor's
 * ({@link #add(int, IntBuffer, IntBuffer, DoubleBuffer, Executor)}: chunks decoded and counted side by side, the
 * counts incremented atomically, so their sum does not depend on the order). {@link #build} then lays the CSR out from
 * the counts, in parallel, in one pass over the edges (see {@link CsrLayout}): each group of chunks has its arcs
 * bucketed by range of rows and each range placed by its own task, in chunk order, the group released once placed;
 * each row is sorted by target and merged in place; the edge ids are numbered last.
 *
 * <p>A graph of more arcs than one Java array holds ({@link #MAX_ARCS}), or of at least {@code wideFromArcs} arcs when
 * the assembly is made with a lower threshold (a test or diagnostic switch), is built in the {@linkplain CsrGraph#wide()
 * wide form}: 64-bit row offsets, its arcs in pages of {@link #PAGE_ARCS}. The arcs placed (before parallel edges are
 * merged) may need it while the graph built does not: it is then built narrow. At most {@link #MAX_ARCS} edges,
 * self-loops aside, whatever the form (edge ids are ints).
 *
 * <p>Memory, in bytes, with e edges, a = e (directed) or 2e (undirected) arcs before merging, n vertices and
 * {@code C} the chunks' compact arrays (8 to 16 bytes an edge): the counts 4(n+1) from the first chunk; at the peak
 * {@code V + max(C + 8e (directed) or C + 24e + B (undirected), 22a)} ({@link #peakBytes}), with V = 4(n+1) for the
 * narrow form, 12(n+1) for the wide one (the counts beside the 64-bit offsets) and B a group's arcs bucketed (4 bytes
 * an arc, at most 8 MiB), at most 1.5 times the graph it gives, {@code 4(n+1) + 16a} or {@code 8(n+1) + 16a} wide
 * ({@link #residentBytes}), when no parallel edges shrink it. {@link #bytes()}
 * is what it holds now, {@link #peakBytes()} the most it held: a chunk's bytes are known, and counted, when it is
 * added, before it is decoded. Called from one thread at a time (the decoding and the build run in parallel).
 */
public final class CsrAssembly {
    /**
     * Bytes a CSR of {@code vertices} vertices and {@code arcs} arcs holds ({@link CsrGraph#bytes()}): 16 an arc, and 4
     * a vertex, or 8 in the wide form that more than {@link #MAX_ARCS} arcs take.
     */
    public static long residentBytes(long vertices, long arcs) {
        return residentBytes(vertices, arcs, arcs > MAX_ARCS);
    }

    static long residentBytes(long vertices, long arcs, boolean wide) {
        return (wide ? 8 : 4) * (vertices + 1) + 16 * arcs;
    }

    /** Bytes the per-vertex counts (later the offsets) of {@code vertices} vertices hold: allocated with the assembly. */
    public static long countsBytes(long vertices) {
        return 4 * (vertices + 1);
    }

    /** Bytes a decoded chunk of {@code edges} edges holds with {@code weightBytes} (0, 4 or 8) an edge of weights. */
    public static long chunkBytes(long edges, int weightBytes) {
        return edges * (8 + weightBytes);
    }

    /**
     * The most a build of {@code edges} edges over {@code vertices} vertices holds at once, chunks included, when its
     * chunks hold {@code chunkBytes} (see {@link #chunkBytes}; 16 an edge at most) and are of at most
     * {@code CsrLayout.GROUP_EDGES} edges (Kafka records hold far fewer): the counts (the wide form: and 64-bit
     * offsets), plus the larger of the placement (the chunks beside the columns and weights they are placed into, and a
     * group of chunks' arcs bucketed by rows, 4 bytes an arc: directed graphs place the columns first and free each
     * chunk's sources, then the weights) and the sort and merge (columns and weights, 12 bytes an
     * arc, with up to 10 more an arc for the sort keys of the rows being sorted and a radix sort's second buffer, or 8
     * for the compacted weights; the edge ids' row cursors, 4 bytes a vertex, only where the vertices are at most
     * 1.5 times the arcs).
     */
    public static long peakBytes(long vertices, long edges, boolean directed, long chunkBytes) {
        return peakBytes(vertices, edges, directed, chunkBytes, (directed ? edges : 2 * edges) > MAX_ARCS,
                Math.min(edges, CsrLayout.GROUP_EDGES));
    }

    /**
     * {@link #peakBytes(long, long, boolean, long)} in the given form (the wide one holds 12 bytes a vertex, not 4),
     * the chunks placed in groups of at most {@code groupEdges} edges, bucketed at 4 bytes an arc beside the arrays
     * (within the directed placement's bound, 8 bytes an edge more for an undirected graph's largest group: at most
     * 4 an arc).
     */
    static long peakBytes(long vertices, long edges, boolean directed, long chunkBytes, boolean wide, long groupEdges) {
        long arcs = directed ? edges : 2 * edges;
        long placement = chunkBytes + (directed ? 8 * edges : 12 * arcs + CsrLayout.bucketBytes(groupEdges, false));
        return (wide ? 12 : 4) * (vertices + 1) + Math.max(placement, 22 * arcs);
    }

    /** {@link #peakBytes(long, long, boolean, long)} with double weights: the most any snapshot of this size takes. */
    public static long peakBytes(long vertices, long edges, boolean directed) {
        return peakBytes(vertices, edges, directed, chunkBytes(edges, 8));
    }

    /**
     * The arcs one Java array holds (the largest, less a margin): a graph of more is built wide. Also the most edges a
     * graph may have, self-loops aside (edge ids are ints).
     */
    public static final int MAX_ARCS = Integer.MAX_VALUE - 8;
    /** {@code wideFromArcs} of an assembly that builds the wide form only when the arcs need it. */
    public static final long WIDE_WHEN_NEEDED = MAX_ARCS + 1L;
    /** Arcs a page of the wide form holds: 2^30 (4 GiB of columns, 8 of weights). */
    public static final int PAGE_ARCS = 1 << 30;

    private static final double INT_WEIGHT_LIMIT = 2147483647.0;

    private final int vertexCount;
    private final boolean directed;
    private final int firstVertexId;
    private final long wideFromArcs;
    private int pageArcs = PAGE_ARCS;
    /** Increments a row's count: chunks being decoded side by side count into the same rows. */
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(int[].class);

    /** Per row, the arcs counted into it (from [0]), until the build turns them into offsets. */
    private int[] counts;
    private final Map<Integer, Chunk> chunks = new TreeMap<>();
    /** Chunks added to be decoded and counted on an executor, until {@link #collect} moves them to {@link #chunks}. */
    private final Map<Integer, CompletableFuture<Chunk>> decoding = new HashMap<>();
    private final AtomicLong arcs = new AtomicLong();
    private long edges;
    private long held;
    private long peak;
    private boolean built;

    /** An assembly of a graph of {@code vertexCount} vertices whose chunks name them {@code firstVertexId} and on. */
    public CsrAssembly(int vertexCount, boolean directed, int firstVertexId) {
        this(vertexCount, directed, firstVertexId, WIDE_WHEN_NEEDED);
    }

    /**
     * An assembly that builds the wide form from {@code wideFromArcs} arcs on (arcs kept, or placed before parallel
     * edges are merged; {@link #WIDE_WHEN_NEEDED}: only where they exceed one array), so that a small graph can take the
     * 64-bit path (tests, diagnostics).
     */
    public CsrAssembly(int vertexCount, boolean directed, int firstVertexId, long wideFromArcs) {
        if (vertexCount < 0) throw new IllegalArgumentException("vertexCount must be >= 0, got " + vertexCount);
        if (wideFromArcs < 0) throw new IllegalArgumentException("wideFromArcs must be >= 0, got " + wideFromArcs);
        this.vertexCount = vertexCount;
        this.directed = directed;
        this.firstVertexId = firstVertexId;
        this.wideFromArcs = Math.min(wideFromArcs, WIDE_WHEN_NEEDED);
        this.counts = new int[vertexCount + 1];
        allocate(countsBytes(vertexCount));
    }

    public int vertexCount() { return vertexCount; }
    public boolean directed() { return directed; }
    /** Arcs from which the graph is built wide. */
    public long wideFromArcs() { return wideFromArcs; }
    int pageArcs() { return pageArcs; }

    /** Sets the arcs a page of the wide form holds (tests: pages of a few arcs). */
    CsrAssembly pageArcs(int arcs) {
        if (arcs < 1) throw new IllegalArgumentException("pageArcs must be positive: " + arcs);
        this.pageArcs = arcs;
        return this;
    }
    /** Edges added so far. */
    public long edges() { return edges; }
    /** Chunks added (decoded or not yet) and not yet placed. */
    public int chunks() { return chunks.size() + decoding.size(); }
    public boolean has(int index) { return chunks.containsKey(index) || decoding.containsKey(index); }
    /** Bytes held now: the counts and the chunks (during a build, the arrays of the CSR too). */
    public long bytes() { return held; }
    /** The most bytes held at once so far. */
    public long peakBytes() { return peak; }

    /** The chunks' bytes now. */
    long chunkBytes() {
        await();
        long b = 0;
        for (Chunk c : chunks.values()) b += c.bytes();
        return b;
    }

    /** What {@link #build} will hold at its peak, from the chunks added: the bound {@link #peakBytes(long, long, boolean, long)}. */
    public long projectedPeakBytes() {
        await();
        long arcs = directed ? edges : 2 * edges;
        return peakBytes(vertexCount, edges, directed, chunkBytes(), arcs >= wideFromArcs || arcs > MAX_ARCS,
                CsrLayout.largestGroup(chunksInOrder()));
    }

    /**
     * One chunk's edges decoded: ids less {@code firstVertexId} (a vertex outside the graph, or a negative, NaN or
     * infinite weight, is remembered and reported by {@link #validate}); {@code weights} with no element remaining
     * means every weight is 1. Nothing is added yet: see {@link #add}.
     */
    public Chunk decode(IntBuffer sources, IntBuffer targets, DoubleBuffer weights) {
        return decode(vertexCount, firstVertexId, sources, targets, weights);
    }

    /** {@link #decode(IntBuffer, IntBuffer, DoubleBuffer)} for an assembly not made yet (its bytes are checked first). */
    public static Chunk decode(int vertexCount, int firstVertexId, IntBuffer sources, IntBuffer targets, DoubleBuffer weights) {
        int m = sources.remaining();
        if (targets.remaining() != m || (weights.remaining() != 0 && weights.remaining() != m)) {
            throw new IllegalArgumentException("sources, targets and weights differ in length (" + m + ", "
                    + targets.remaining() + ", " + weights.remaining() + ")");
        }
        int[] s = new int[m], t = new int[m];
        int badVertex = -1;
        int n = vertexCount;
        for (int i = 0; i < m; i++) {
            long u = (long) sources.get(sources.position() + i) - firstVertexId;
            long v = (long) targets.get(targets.position() + i) - firstVertexId;
            if (badVertex < 0 && (u < 0 || u >= n || v < 0 || v >= n)) badVertex = i;
            s[i] = (int) u;   // (int) (u + first) is the user's id again, for the message
            t[i] = (int) v;
        }
        return weights.remaining() == 0 ? new Chunk(s, t, null, null, badVertex, -1) : Chunk.weighted(s, t, weights, badVertex);
    }

    /** {@link #decode(IntBuffer, IntBuffer, DoubleBuffer)} of arrays; {@code weights} null means every weight is 1. */
    public Chunk decode(int[] sources, int[] targets, double[] weights) {
        return decode(IntBuffer.wrap(sources), IntBuffer.wrap(targets), DoubleBuffer.wrap(weights == null ? new double[0] : weights));
    }

    /**
     * Adds chunk {@code index} and counts its arcs into the rows (self-loops are never stored). Chunks may come in any
     * order; the build places them in index order, so that among parallel edges of equal weight the first in chunk
     * order is kept, as {@link GraphBuilder} keeps the first in input order.
     *
     * @throws InvalidGraphException TOO_LARGE when the edges counted, self-loops aside, exceed {@link #MAX_ARCS}
     */
    public void add(int index, Chunk c) {
        requireNew(index);
        count(c);
        edges += c.edges;
        chunks.put(index, c);
        allocate(c.bytes());
    }

    /**
     * Adds chunk {@code index} of these edges (as {@link #decode(IntBuffer, IntBuffer, DoubleBuffer)} reads them),
     * decoded and counted by a task on {@code executor}; the buffers must not change until then. Its bytes are counted
     * now ({@link #weightBytes} reads the weights once to know them). A task that failed (TOO_LARGE: more edges than a
     * CSR holds, or out of memory) makes a later {@code add}, {@link #await} or {@link #validate} throw. With a direct
     * executor ({@code Runnable::run}) this is {@link #add(int, Chunk)} of the decoded chunk.
     */
    public void add(int index, IntBuffer sources, IntBuffer targets, DoubleBuffer weights, Executor executor) {
        requireNew(index);
        int m = sources.remaining();
        if (targets.remaining() != m || (weights.remaining() != 0 && weights.remaining() != m)) {
            throw new IllegalArgumentException("sources, targets and weights differ in length (" + m + ", "
                    + targets.remaining() + ", " + weights.remaining() + ")");
        }
        allocate(chunkBytes(m, weightBytes(weights)));
        edges += m;
        int n = vertexCount, first = firstVertexId;
        decoding.put(index, CompletableFuture.supplyAsync(() -> {
            Chunk c = decode(n, first, sources, targets, weights);
            count(c);
            return c;
        }, executor));
        collect(false);
    }

    /** Waits until every chunk added is decoded and counted. @throws InvalidGraphException as {@link #add(int, Chunk)} */
    public void await() {
        collect(true);
    }

    /**
     * Moves the decoded chunks (all of them when {@code wait}, else those done) from {@link #decoding} to
     * {@link #chunks}; rethrows a task's failure.
     */
    private void collect(boolean wait) {
        for (Iterator<Map.Entry<Integer, CompletableFuture<Chunk>>> it = decoding.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, CompletableFuture<Chunk>> e = it.next();
            if (!wait && !e.getValue().isDone()) continue;
            Chunk c;
            try {
                c = e.getValue().join();
            } catch (CompletionException x) {
                if (x.getCause() instanceof RuntimeException r) throw r;
                if (x.getCause() instanceof Error r) throw r;
                throw x;
            }
            it.remove();
            chunks.put(e.getKey(), c);
        }
    }

    private void requireNew(int index) {
        if (built) throw new IllegalStateException("the graph was built already");
        if (has(index)) throw new IllegalArgumentException("chunk " + index + " was added already");
    }

    /** Counts the chunk's arcs into the rows (atomically: chunks may be counted side by side). */
    private void count(Chunk c) {
        int[] s = c.sources, t = c.targets, deg = counts;
        int n = vertexCount;
        long added = 0;
        for (int i = 0; i < s.length; i++) {
            int u = s[i], v = t[i];
            if (u == v || u < 0 || u >= n || v < 0 || v >= n) continue;   // a bad vertex fails validate()
            COUNT.getAndAdd(deg, u, 1);
            added++;
            if (!directed) {
                COUNT.getAndAdd(deg, v, 1);
                added++;
            }
        }
        long total = arcs.addAndGet(added);
        if ((directed ? total : total / 2) > MAX_ARCS) {
            throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE, "graph has more than " + MAX_ARCS
                    + " edges (self-loops aside); at most " + MAX_ARCS + " are supported (edge ids are 32-bit)");
        }
    }

    /**
     * Bytes of weights an edge these weights take once decoded ({@link Chunk#weightBytes}): 0 when there are none or
     * all are 1, 4 when all are exact integers below 2^31 (never -0.0), else 8.
     */
    public static int weightBytes(DoubleBuffer weights) {
        boolean ones = true;
        for (int i = weights.position(), end = weights.limit(); i < end; i++) {
            double x = weights.get(i);
            if (x == 1.0) continue;
            ones = false;
            if (!intWeight(x)) return 8;
        }
        return ones ? 0 : 4;
    }

    /** Whether {@code x} is kept as an int32 weight: an exact integer below 2^31, the bits of the double it came from. */
    private static boolean intWeight(double x) {
        return x <= INT_WEIGHT_LIMIT && Double.doubleToRawLongBits((int) x) == Double.doubleToRawLongBits(x);
    }

    /**
     * @throws InvalidGraphException for the first edge, in chunk order, with a vertex outside the graph (in the user's
     * ids); else for the first with a negative, NaN or infinite weight
     */
    public void validate() {
        await();
        long before = 0;
        for (Chunk c : chunks.values()) {
            if (c.badVertex >= 0) {
                int i = c.badVertex;
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX, "edge (" + (c.sources[i] + firstVertexId)
                        + ", " + (c.targets[i] + firstVertexId) + ") has a vertex outside " + firstVertexId + ".."
                        + (firstVertexId + (long) vertexCount - 1));
            }
        }
        for (Chunk c : chunks.values()) {
            if (c.badWeight >= 0) {
                int i = c.badWeight;
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT, "edge " + (before + i) + " ("
                        + (c.sources[i] + firstVertexId) + " -> " + (c.targets[i] + firstVertexId) + ") has weight "
                        + c.weight(i) + "; weights must be finite and non-negative");
            }
            before += c.sources.length;
        }
    }

    /** {@link #validate}s, then lays out the CSR, releasing the chunks as they are placed. Once only. */
    public CsrGraph build() {
        return build(CsrLayout.parallelism());
    }

    /** {@link #build()} with the parallel steps split {@code parts} ways (the result does not depend on it). */
    CsrGraph build(int parts) {
        if (built) throw new IllegalStateException("the graph was built already");
        validate();
        built = true;
        int[] offsets = counts;
        counts = null;
        return new CsrLayout(this, offsets, parts).build();
    }

    // ------------------------------------------------------------------------------------- used by CsrLayout

    long arcs() { return arcs.get(); }

    /** The chunks in index order, for placement (each is released by {@link Chunk#release}). */
    List<Chunk> chunksInOrder() { return new ArrayList<>(chunks.values()); }

    /** Forgets the chunks placed so far (their bytes were released one by one). */
    void placed() { chunks.clear(); }

    void allocate(long bytes) {
        held += bytes;
        peak = Math.max(peak, held);
    }

    void release(long bytes) {
        held -= bytes;
    }

    static boolean integral(double w) {
        return w == Math.rint(w) && w <= INT_WEIGHT_LIMIT;
    }

    /**
     * One chunk's edges in 0-based ids, weights compact: none (all 1), int32 (all integers below 2^31, with the bits
     * of the double they came from: never -0.0) or doubles.
     */
    public static final class Chunk {
        int[] sources;
        int[] targets;
        int[] intWeights;
        double[] weights;
        final int edges;
        final int badVertex;
        final int badWeight;

        Chunk(int[] sources, int[] targets, int[] intWeights, double[] weights, int badVertex, int badWeight) {
            this.edges = sources.length;
            this.sources = sources;
            this.targets = targets;
            this.intWeights = intWeights;
            this.weights = weights;
            this.badVertex = badVertex;
            this.badWeight = badWeight;
        }

        /** Weights read as int32 while they are exact integers below 2^31; widened to doubles once, at the first that is not. */
        static Chunk weighted(int[] s, int[] t, DoubleBuffer w, int badVertex) {
            int m = s.length, at = w.position(), badWeight = -1;
            boolean ones = true;
            int[] iw = new int[m];
            double[] dw = null;
            for (int i = 0; i < m; i++) {
                double x = w.get(at + i);
                if (badWeight < 0 && (!(x >= 0) || Double.isInfinite(x))) badWeight = i;
                ones &= x == 1.0;
                if (dw != null) {
                    dw[i] = x;
                } else if (intWeight(x)) {
                    iw[i] = (int) x;
                } else {
                    dw = new double[m];
                    for (int k = 0; k < i; k++) dw[k] = iw[k];
                    dw[i] = x;
                    iw = null;
                }
            }
            if (ones) return new Chunk(s, t, null, null, badVertex, badWeight);
            return new Chunk(s, t, iw, dw, badVertex, badWeight);
        }

        public int edges() { return edges; }

        /** Bytes of weights an edge: 0 (all 1), 4 or 8. */
        public int weightBytes() { return weights != null ? 8 : intWeights != null ? 4 : 0; }

        /** Bytes its arrays hold now (a directed graph's chunk frees its sources once its columns are placed). */
        public long bytes() {
            return (long) edges * ((sources == null ? 0 : 4) + (targets == null ? 0 : 4) + weightBytes());
        }

        /** Drops its arrays (placed). */
        void release() {
            sources = null;
            targets = null;
            intWeights = null;
            weights = null;
        }

        double weight(int i) {
            return weights != null ? weights[i] : intWeights != null ? intWeights[i] : 1.0;
        }
    }
}
