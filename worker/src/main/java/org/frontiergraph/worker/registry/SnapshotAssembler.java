package org.frontiergraph.worker.registry;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * Collects the chunks of snapshot versions until each is complete. At most one version per graph is pending: a chunk
 * of a newer version abandons an older incomplete one (reported as INCOMPLETE_SNAPSHOT: a truncated snapshot).
 * Chunks must agree on every header field; a redelivered chunk (same index) is ignored. Not thread-safe: one
 * consumer thread owns the graphs of its partitions.
 */
public final class SnapshotAssembler {
    private final long maxPendingBytes;
    private final Map<String, Pending> pending = new HashMap<>();
    private long pendingBytes;

    public SnapshotAssembler(long maxPendingBytes) {
        this.maxPendingBytes = maxPendingBytes;
    }

    /** A complete snapshot version, ids already made 0-based. */
    /** A complete version; {@code firstOffset} is the log offset of its earliest chunk (-1 when unknown). */
    public record Assembled(String graphId, long version, int firstVertexId, EdgeList edges, long firstOffset) {}

    /** What one chunk led to: perhaps a complete version, perhaps an older version abandoned. */
    public record Outcome(Optional<Assembled> complete, List<RejectedException> abandoned) {}

    /**
     * Adds a chunk read from {@code partition}. When the chunk is rejected after it abandoned an older version, the
     * abandonment (INCOMPLETE_SNAPSHOT) travels as a suppressed exception of the rejection, so it is still reported.
     */
    public Outcome accept(GraphSnapshotChunk c, int partition) {
        return accept(c, partition, -1);
    }

    /** As {@link #accept(GraphSnapshotChunk, int)}, remembering the chunk's log offset (for rebuilds). */
    public Outcome accept(GraphSnapshotChunk c, int partition, long offset) {
        validateHeader(c);
        List<RejectedException> abandoned = new ArrayList<>();
        Pending p = pending.get(c.getGraphId());
        if (p != null && p.version != c.getVersion()) {
            if (c.getVersion() < p.version) {
                throw new RejectedException(ErrorCode.STALE_VERSION, "chunk " + c.getChunkIndex() + " of version " + c.getVersion()
                        + " of graph '" + c.getGraphId() + "' arrived after version " + p.version + " began; ignored");
            }
            abandoned.add(new RejectedException(ErrorCode.INCOMPLETE_SNAPSHOT, "version " + p.version + " of graph '"
                    + c.getGraphId() + "' abandoned incomplete: " + p.describeMissing() + " before version "
                    + c.getVersion() + " began"));
            drop(c.getGraphId());
            p = null;
        }
        try {
            return add(c, p, partition, offset, abandoned);
        } catch (RejectedException e) {
            abandoned.forEach(e::addSuppressed);
            throw e;
        }
    }

    private Outcome add(GraphSnapshotChunk c, Pending p, int partition, long offset, List<RejectedException> abandoned) {
        if (p == null) {
            p = new Pending(c, partition);
            pending.put(c.getGraphId(), p);
        } else if (!p.agrees(c)) {
            drop(c.getGraphId());
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, "chunk " + c.getChunkIndex() + " of version " + c.getVersion()
                    + " of graph '" + c.getGraphId() + "' disagrees with earlier chunks (" + p.headerString()
                    + " vs " + headerString(c) + "); the whole version is discarded");
        }
        if (p.chunks[c.getChunkIndex()] != null) return new Outcome(Optional.empty(), abandoned);
        int m = PackedArrays.intCount(c.getEdges().getSources());   // validated by validateHeader
        long bytes = 16L * m;
        if (pendingBytes + bytes > maxPendingBytes) {
            drop(c.getGraphId());
            throw new RejectedException(ErrorCode.GRAPH_TOO_LARGE, "snapshot version " + c.getVersion() + " of graph '"
                    + c.getGraphId() + "' exceeds the worker's buffer for pending snapshots (" + maxPendingBytes + " bytes)");
        }
        p.chunks[c.getChunkIndex()] = c.getEdges();
        if (p.received == 0) p.firstOffset = offset;
        else if (offset < 0 || p.firstOffset < 0) p.firstOffset = -1;
        else p.firstOffset = Math.min(p.firstOffset, offset);
        p.received++;
        p.edges += m;
        p.bytes += bytes;
        pendingBytes += bytes;
        if (p.received < p.chunks.length) return new Outcome(Optional.empty(), abandoned);
        drop(c.getGraphId());
        if (p.edges != p.edgeCount) {
            throw new RejectedException(ErrorCode.INVALID_SNAPSHOT, "version " + p.version + " of graph '" + c.getGraphId()
                    + "' declares " + p.edgeCount + " edges but its " + p.chunks.length + " chunks hold " + p.edges
                    + " (truncated or padded snapshot)");
        }
        return new Outcome(Optional.of(p.assemble()), abandoned);
    }

    /** A short description of what is pending for a graph, for error messages; empty when nothing is. */
    public Optional<String> pendingDescription(String graphId) {
        Pending p = pending.get(graphId);
        return p == null ? Optional.empty()
                : Optional.of("version " + p.version + " is being assembled (" + p.received + " of " + p.chunks.length + " chunks)");
    }

    /** Forgets pending versions of these graphs (their partition was revoked). */
    public void forget(java.util.Collection<String> graphIds) {
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
    public void forgetPartitions(java.util.Collection<Integer> partitions) {
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
                + ", directed=" + c.getDirected() + ", firstVertexId=" + c.getFirstVertexId();
    }

    private static final class Pending {
        final long version;
        final int partition;
        final GraphSnapshotChunk header;
        final long edgeCount;
        final EdgeBatch[] chunks;
        int received;
        long edges;
        long bytes;
        long firstOffset = -1;

        Pending(GraphSnapshotChunk c, int partition) {
            this.version = c.getVersion();
            this.partition = partition;
            this.header = c;
            this.edgeCount = c.getEdgeCount();
            this.chunks = new EdgeBatch[c.getChunkCount()];
        }

        boolean agrees(GraphSnapshotChunk c) {
            return c.getVertexCount() == header.getVertexCount() && c.getEdgeCount() == header.getEdgeCount()
                    && c.getChunkCount() == header.getChunkCount() && c.getDirected() == header.getDirected()
                    && c.getFirstVertexId() == header.getFirstVertexId()
                    && Objects.equals(c.getGraphId(), header.getGraphId());
        }

        String headerString() { return SnapshotAssembler.headerString(header); }

        String describeMissing() {
            StringBuilder sb = new StringBuilder();
            int shown = 0, missing = 0;
            for (int i = 0; i < chunks.length; i++) {
                if (chunks[i] == null) {
                    missing++;
                    if (shown++ < 8) sb.append(sb.length() == 0 ? "" : ", ").append(i);
                }
            }
            return missing + " of " + chunks.length + " chunks never arrived (" + sb + (missing > 8 ? ", ..." : "") + ")";
        }

        Assembled assemble() {
            int n = header.getVertexCount();
            int first = header.getFirstVertexId();
            EdgeList list = new EdgeList(n, header.getDirected(), (int) Math.min(Integer.MAX_VALUE - 8, edges));
            for (EdgeBatch b : chunks) {
                IntBuffer s = PackedArrays.ints(b.getSources()), t = PackedArrays.ints(b.getTargets());
                DoubleBuffer w = PackedArrays.doubles(b.getWeights());
                boolean weighted = w.hasRemaining();
                for (int i = 0; i < s.limit(); i++) {
                    int u = s.get(i), v = t.get(i);
                    if (u < first || u >= first + n || v < first || v >= first + n) {
                        throw new RejectedException(ErrorCode.INVALID_VERTEX, "version " + version + " of graph '" + header.getGraphId()
                                + "': edge (" + u + ", " + v + ") has a vertex outside " + first + ".." + (first + n - 1));
                    }
                    list.add(u - first, v - first, weighted ? w.get(i) : 1.0);
                }
            }
            return new Assembled(header.getGraphId(), version, first, list, firstOffset);
        }
    }
}
