package org.frontiergraph.worker.registry;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.IntPredicate;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * Collects the chunks of snapshot versions until each is complete. At most one version per graph is pending: a chunk
 * of a newer version abandons an older incomplete one (reported as INCOMPLETE_SNAPSHOT: a truncated snapshot), and
 * so does {@link #expire age}. Chunks must agree on every header field; a redelivered chunk (same index) is ignored.
 *
 * <p>A version's chunks go straight into a {@link CsrAssembly}, which counts their arcs as they arrive and keeps them
 * compactly (8 to 16 bytes an edge) until the version completes and the CSR is built from them. Each chunk's edges are
 * decoded and counted on the {@code decoders} executor ({@link ChunkDecoders}: side by side, off the consumer thread),
 * while its header, its index and its bytes are checked here, in log order; the version's last chunk waits for the
 * others to be decoded before the version is validated. Only the assembly's
 * per-vertex counts are allocated from a declared size (4 bytes a vertex, with the version's first chunk, checked
 * against the limit first); chunks are kept by index (a header declaring two billion chunks costs nothing until they
 * arrive), and {@link #pendingBytes()} counts what they hold, overheads included, against the buffer's limit. Not
 * thread-safe: the registry serialises its callers.
 */
public final class SnapshotAssembler {
    /** Heap a pending version costs before any edge: its header, map entries and bookkeeping. */
    public static final long VERSION_OVERHEAD_BYTES = 256;
    /** Heap a buffered chunk costs besides its edges: the chunk, its arrays' headers, its map entry. */
    public static final long CHUNK_OVERHEAD_BYTES = 96;

    private final long maxPendingBytes;
    private final Executor decoders;
    private final long wideArcsFrom;
    private final Map<String, Pending> pending = new HashMap<>();
    private long pendingBytes;

    /** Chunks decoded on the caller's thread. */
    public SnapshotAssembler(long maxPendingBytes) {
        this(maxPendingBytes, Runnable::run);
    }

    /** Chunks decoded and counted on {@code decoders}. */
    public SnapshotAssembler(long maxPendingBytes, Executor decoders) {
        this(maxPendingBytes, decoders, 0);
    }

    /**
     * Chunks decoded and counted on {@code decoders}; versions of at least {@code wideArcsFrom} arcs built in the wide
     * form ({@code frontier.wide-arcs-from}; 0: only those of more arcs than one array holds).
     */
    public SnapshotAssembler(long maxPendingBytes, Executor decoders, long wideArcsFrom) {
        if (wideArcsFrom < 0) throw new IllegalArgumentException("frontier.wide-arcs-from must be >= 0, got " + wideArcsFrom);
        this.maxPendingBytes = maxPendingBytes;
        this.decoders = decoders;
        this.wideArcsFrom = wideArcsFrom > 0 ? wideArcsFrom : CsrAssembly.WIDE_WHEN_NEEDED;
    }

    /**
     * A complete version, validated, its CSR still to be built from {@code graph} (which holds its chunks until then);
     * {@code firstOffset} is the log offset of its earliest chunk (-1 when unknown); {@code names} its vertex names
     * (null: an unnamed graph).
     */
    public record Assembled(String graphId, long version, int firstVertexId, CsrAssembly graph, long firstOffset,
                            VertexNameTable names) {}

    /** What one chunk led to: perhaps a complete version, perhaps an older version abandoned. */
    public record Outcome(Optional<Assembled> complete, List<RejectedException> abandoned) {}

    /**
     * Heap that buffering a chunk of {@code edges} edges costs with {@code weightBytes} bytes an edge of weights: 0 when
     * every weight is 1, 4 when all are integers below 2^31, else 8 ({@link CsrAssembly.Chunk}).
     */
    public static long chunkBytes(long edges, int weightBytes) {
        return CHUNK_OVERHEAD_BYTES + CsrAssembly.chunkBytes(edges, weightBytes);
    }

    /**
     * Adds a chunk read from {@code partition}. When the chunk is rejected after it abandoned an older version, the
     * abandonment (INCOMPLETE_SNAPSHOT) travels as a suppressed exception of the rejection, so it is still reported.
     */
    public Outcome accept(GraphSnapshotChunk c, int partition) {
        return accept(c, partition, -1, 0);
    }

    /** As {@link #accept(GraphSnapshotChunk, int)}, remembering the chunk's log offset (for rebuilds). */
    public Outcome accept(GraphSnapshotChunk c, int partition, long offset) {
        return accept(c, partition, offset, 0);
    }

    /** As {@link #accept(GraphSnapshotChunk, int, long)}, with the record's timestamp (a pending version's age). */
    public Outcome accept(GraphSnapshotChunk c, int partition, long offset, long timestampMs) {
        validateHeader(c);
        List<RejectedException> abandoned = new ArrayList<>();
        Pending p = pending.get(c.getGraphId());
        if (p != null && p.version != c.getVersion()) {
            if (c.getVersion() < p.version) {
                throw new RejectedException(ErrorCode.STALE_VERSION, "chunk " + c.getChunkIndex() + " of version " + c.getVersion()
                        + " of graph '" + c.getGraphId() + "' arrived after version " + p.version + " began; ignored");
            }
            abandoned.add(p.abandoned("before version " + c.getVersion() + " began"));
            drop(c.getGraphId());
            p = null;
        }
        try {
            return add(c, p, partition, offset, timestampMs, abandoned);
        } catch (RejectedException e) {
            abandoned.forEach(e::addSuppressed);
            throw e;
        }
    }

    /** Whether chunks of this version of the graph are being assembled (so a chunk of it starts nothing new). */
    public boolean isPending(String graphId, long version) {
        Pending p = pending.get(graphId);
        return p != null && p.version == version;
    }

    private Outcome add(GraphSnapshotChunk c, Pending p, int partition, long offset, long timestampMs,
                        List<RejectedException> abandoned) {
        boolean fresh = p == null;
        if (fresh) {
            p = new Pending(c, partition, timestampMs);
        } else if (!p.agrees(c)) {
            drop(c.getGraphId());
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, "chunk " + c.getChunkIndex() + " of version " + c.getVersion()
                    + " of graph '" + c.getGraphId() + "' disagrees with earlier chunks (" + p.headerString()
                    + " vs " + headerString(c) + "); the whole version is discarded");
        }
        if (!fresh && p.graph.has(c.getChunkIndex())) return new Outcome(Optional.empty(), abandoned);
        EdgeBatch e = c.getEdges();
        int m = PackedArrays.intCount(e.getSources());   // validated by validateHeader
        int n = p.header.getVertexCount(), first = p.header.getFirstVertexId();
        DoubleBuffer weights = PackedArrays.doubles(e.getWeights());
        long bytes = chunkBytes(m, CsrAssembly.weightBytes(weights)) + PendingNames.bytes(c)
                + (fresh ? VERSION_OVERHEAD_BYTES + CsrAssembly.countsBytes(n) + (c.getNamed() ? 8L * n : 0) : 0);
        if (pendingBytes + bytes > maxPendingBytes) {
            drop(c.getGraphId());
            throw new RejectedException(ErrorCode.GRAPH_TOO_LARGE, "snapshot version " + c.getVersion() + " of graph '"
                    + c.getGraphId() + "' exceeds the worker's buffer for pending snapshots (" + maxPendingBytes + " bytes, "
                    + pendingBytes + " held; frontier.max-pending-snapshot-bytes)");
        }
        if (fresh) {
            p.graph = new CsrAssembly(n, p.header.getDirected(), first, wideArcsFrom);
            pending.put(c.getGraphId(), p);
        }
        p.bytes += bytes;
        pendingBytes += bytes;
        try {
            p.graph.add(c.getChunkIndex(), PackedArrays.ints(e.getSources()), PackedArrays.ints(e.getTargets()), weights, decoders);
            if (p.names != null) p.names.add(c);
        } catch (InvalidGraphException x) {   // more edges than a CSR holds
            drop(c.getGraphId());
            throw new RejectedException(ErrorCode.of(x), "version " + p.version + " of graph '" + c.getGraphId() + "': " + x.getMessage(), x);
        } catch (RuntimeException | Error x) {   // names that do not fit, or a chunk's decoding failed (out of memory): the version cannot complete
            drop(c.getGraphId());
            throw x;
        }
        if (p.graph.chunks() == 1) p.firstOffset = offset;
        else if (offset < 0 || p.firstOffset < 0) p.firstOffset = -1;
        else p.firstOffset = Math.min(p.firstOffset, offset);
        p.edges += m;
        if (p.edges > p.edgeCount) {
            drop(c.getGraphId());
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, "version " + p.version + " of graph '" + c.getGraphId()
                    + "' declares " + p.edgeCount + " edges but its chunks so far hold " + p.edges + " (padded snapshot)");
        }
        if (p.graph.chunks() < p.chunkCount) return new Outcome(Optional.empty(), abandoned);
        drop(c.getGraphId());
        if (p.edges != p.edgeCount) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, "version " + p.version + " of graph '" + c.getGraphId()
                    + "' declares " + p.edgeCount + " edges but its " + p.chunkCount + " chunks hold " + p.edges
                    + " (truncated or padded snapshot)");
        }
        return new Outcome(Optional.of(p.assemble()), abandoned);
    }

    /**
     * Drops the versions of the partitions {@code partitions} accepts whose first chunk is older than
     * {@code firstChunkBefore} (a record timestamp), and reports each as INCOMPLETE_SNAPSHOT: a snapshot that never
     * completes must not hold the buffer, nor a partition's rebuild, for good. {@code why} ends the reason.
     */
    public void expire(IntPredicate partitions, long firstChunkBefore, String why, ExpiryListener expired) {
        for (Iterator<Pending> it = pending.values().iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.firstTimestampMs < firstChunkBefore && partitions.test(p.partition)) {
                it.remove();
                pendingBytes -= p.bytes;
                expired.expired(p.header.getGraphId(), p.partition, p.firstOffset, p.abandoned(why));
            }
        }
    }

    /** Told of each version {@link #expire} drops. */
    @FunctionalInterface
    public interface ExpiryListener {
        void expired(String graphId, int partition, long firstOffset, RejectedException reason);
    }

    /** A short description of what is pending for a graph, for error messages; empty when nothing is. */
    public Optional<String> pendingDescription(String graphId) {
        Pending p = pending.get(graphId);
        return p == null ? Optional.empty()
                : Optional.of("version " + p.version + " is being assembled (" + p.graph.chunks() + " of " + p.chunkCount + " chunks)");
    }

    /** Forgets pending versions of these graphs (their partition was revoked). */
    public void forget(Collection<String> graphIds) {
        graphIds.forEach(this::drop);
    }

    /**
     * The earliest log offset of a chunk still pending in {@code partition}: a rebuild must replay from there.
     * -1 when an offset is unknown, {@code Long.MAX_VALUE} when nothing is pending there.
     */
    public long earliestPendingOffset(int partition) {
        long min = Long.MAX_VALUE;
        for (Pending p : pending.values()) {
            if (p.partition == partition) min = p.firstOffset < 0 ? -1 : Math.min(min, p.firstOffset);
            if (min < 0) return -1;
        }
        return min;
    }

    /** Forgets pending versions whose chunks came from these partitions (revoked or lost). */
    public void forgetPartitions(Collection<Integer> partitions) {
        List<String> ids = pending.entrySet().stream().filter(e -> partitions.contains(e.getValue().partition))
                .map(Map.Entry::getKey).toList();
        forget(ids);
    }

    public void forgetAll() {
        pending.clear();
        pendingBytes = 0;
    }

    public long pendingBytes() { return pendingBytes; }

    private void drop(String graphId) {
        Pending p = pending.remove(graphId);
        if (p != null) pendingBytes -= p.bytes;
    }

    private static void validateHeader(GraphSnapshotChunk c) {
        String where = "snapshot chunk " + c.getChunkIndex() + " of version " + c.getVersion() + " of graph '" + c.getGraphId() + "'";
        if (c.getGraphId() == null || c.getGraphId().isEmpty()) throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, "snapshot chunk has an empty graphId");
        if (c.getChunkCount() < 1 || c.getChunkIndex() < 0 || c.getChunkIndex() >= c.getChunkCount()) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where + ": chunkIndex must be in 0.." + (c.getChunkCount() - 1)
                    + " and chunkCount >= 1 (got chunkCount " + c.getChunkCount() + ")");
        }
        if (c.getVertexCount() < 0 || c.getEdgeCount() < 0) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where + ": negative vertexCount or edgeCount");
        }
        if (c.getChunkCount() > Math.max(1, c.getEdgeCount())) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where + ": declares " + c.getChunkCount()
                    + " chunks for " + c.getEdgeCount() + " edges (at most one chunk an edge, or one chunk for no edge)");
        }
        EdgeBatch e = c.getEdges();
        int m = count(where, "sources", e.getSources(), false), targets = count(where, "targets", e.getTargets(), false),
                weights = count(where, "weights", e.getWeights(), true);
        if (targets != m || (weights != 0 && weights != m)) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where + ": sources, targets and weights differ in length ("
                    + m + ", " + targets + ", " + weights + ")");
        }
    }

    /** Elements of one packed field of a chunk's edges. @throws RejectedException INVALID_SNAPSHOT when malformed */
    private static int count(String where, String field, ByteBuffer packed, boolean float64) {
        try {
            return float64 ? PackedArrays.doubleCount(packed) : PackedArrays.intCount(packed);
        } catch (PackedArrays.MalformedArrayException e) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, where + ": edges." + field + " is " + e.getMessage());
        }
    }

    private static String headerString(GraphSnapshotChunk c) {
        return "vertexCount=" + c.getVertexCount() + ", edgeCount=" + c.getEdgeCount() + ", chunkCount=" + c.getChunkCount()
                + ", directed=" + c.getDirected() + ", firstVertexId=" + c.getFirstVertexId() + ", named=" + c.getNamed();
    }

    private static final class Pending {
        final long version;
        final int partition;
        final GraphSnapshotChunk header;
        final long edgeCount;
        final int chunkCount;
        final long firstTimestampMs;
        /** The chunks that arrived, by index, counted into their rows; made with the first. */
        CsrAssembly graph;
        /** The names that arrived (named graphs only). */
        final PendingNames names;
        long edges;
        long bytes;
        long firstOffset = -1;

        Pending(GraphSnapshotChunk c, int partition, long timestampMs) {
            this.version = c.getVersion();
            this.partition = partition;
            this.header = GraphSnapshotChunk.newBuilder(c).setEdges(PackedArrays.edgeBatch(new int[0], new int[0], new double[0]))
                    .setNames(List.of()).build();
            this.names = c.getNamed() ? new PendingNames(c.getVertexCount()) : null;
            this.edgeCount = c.getEdgeCount();
            this.chunkCount = c.getChunkCount();
            this.firstTimestampMs = timestampMs;
        }

        boolean agrees(GraphSnapshotChunk c) {
            return c.getVertexCount() == header.getVertexCount() && c.getEdgeCount() == header.getEdgeCount()
                    && c.getChunkCount() == header.getChunkCount() && c.getDirected() == header.getDirected()
                    && c.getFirstVertexId() == header.getFirstVertexId() && c.getNamed() == header.getNamed()
                    && Objects.equals(c.getGraphId(), header.getGraphId());
        }

        String headerString() { return SnapshotAssembler.headerString(header); }

        RejectedException abandoned(String why) {
            return new RejectedException(ErrorCode.INCOMPLETE_SNAPSHOT, "version " + version + " of graph '"
                    + header.getGraphId() + "' abandoned incomplete: " + describeMissing() + " " + why);
        }

        /** The first missing chunk indices: at most eight, found among the first received + 8 indices. */
        String describeMissing() {
            StringBuilder sb = new StringBuilder();
            int shown = 0;
            for (int i = 0; i < chunkCount && shown < 8; i++) {
                if (!graph.has(i)) {
                    sb.append(shown++ == 0 ? "" : ", ").append(i);
                }
            }
            long missing = (long) chunkCount - graph.chunks();
            return missing + " of " + chunkCount + " chunks never arrived (" + sb + (missing > 8 ? ", ..." : "") + ")";
        }

        /** The complete version, its edges checked: @throws RejectedException for the first bad edge in chunk order */
        Assembled assemble() {
            try {
                graph.validate();
            } catch (InvalidGraphException e) {
                throw new RejectedException(ErrorCode.of(e), "version " + version + " of graph '" + header.getGraphId() + "': "
                        + e.getMessage(), e);
            }
            return new Assembled(header.getGraphId(), version, header.getFirstVertexId(), graph, firstOffset,
                    names == null ? null : names.table(header.getGraphId(), version));
        }
    }
}
