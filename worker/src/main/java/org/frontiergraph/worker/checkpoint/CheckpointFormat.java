package org.frontiergraph.worker.checkpoint;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.registry.WindowEntry;

/**
 * How a checkpoint lies on the checkpoint topic ({@code frontier.topics.checkpoints}, compacted; docs/contract.md,
 * "Checkpoints"). A graph has two slots (0, 1); a checkpoint fills one, the other keeps the previous one whole until
 * the new one is written and a commit relies on it, so a writer that dies mid-way never leaves a graph without one.
 * <ul>
 *   <li>Chunk {@code i} of slot {@code s} of graph {@code g}: key {@code g/s/i}, value a {@link GraphSnapshotChunk}
 *       of the graph's current version (its edges in canonical order, {@code (u, v)} with {@code u < v} undirected,
 *       the user's ids), header {@link #HEADER} (the record it covers, the lineage, version, slot, index, count),
 *       and a slice of the deduplication window in header {@link #WINDOW}. A named graph's vertex names follow in
 *       chunks of their own after the edges' ({@code named}, {@code namesOffset} and {@code names} as a snapshot's). A slot's chunks belong together only when
 *       all carry the same covered offset, version and count: stale chunks of an older checkpoint never pass for a
 *       newer one (and a shorter checkpoint tombstones the indexes beyond it).</li>
 *   <li>Chunk 0 also carries header {@link #SLOTS}: the keys each of the graph's two slots may hold as the writer
 *       knew them, so that a reader which starts at this checkpoint (not at the beginning of the partition, see
 *       {@link CheckpointCatalog}) still knows which keys of the other slot a later write must tombstone.</li>
 *   <li>The validity marker of slot {@code s}: key {@code g/s/valid}, an empty value, header {@link #HEADER} naming the
 *       checkpoint, header {@link #VALID}: the graph was unchanged from the checkpoint's offset up to this one.</li>
 * </ul>
 * Keys end in two segments after the graph id, so they are unique whatever the id holds.
 */
public final class CheckpointFormat {
    /** Header: covered offset, lineage, version (longs), partition, slot, chunk index, chunk count (ints). */
    public static final String HEADER = "frontier.checkpoint";
    /** Header: a slice of the deduplication window (count, then per entry: id length, UTF-8 id, version, current lineage). */
    public static final String WINDOW = "frontier.window";
    /** Header of a validity marker: the offset through which the checkpoint holds. */
    public static final String VALID = "frontier.valid";
    /** Header of chunk 0: the chunk keys of slots 0 and 1, then the subscription keys of slots 0 and 1 (ints). */
    public static final String SLOTS = "frontier.slots";
    /** The last key segment of a validity marker. */
    public static final String VALID_KEY = "valid";
    private static final int HEADER_BYTES = 3 * Long.BYTES + 4 * Integer.BYTES;
    /** Bytes of window entries one chunk carries at most. */
    static final int WINDOW_BYTES_PER_CHUNK = 256 << 10;

    private CheckpointFormat() {}

    /** One record to write: its key, value (null: a tombstone) and headers. */
    public record Out(String key, byte[] value, Headers headers) {}

    /** The identity and place of a record of a slot, read from its header. */
    public record Meta(long offset, long lineage, long version, int partition, int slot, int index, int count) {
        boolean sameCheckpoint(Meta o) {
            return offset == o.offset && version == o.version && count == o.count && lineage == o.lineage;
        }
    }

    /**
     * What a checkpoint is taken of: an immutable copy of the graph's current version, its window and its vertex names
     * (null: an unnamed graph).
     */
    public record Taken(String graphId, int partition, int slot, long offset, long version, long lineage, int firstVertexId,
                        CsrGraph graph, List<WindowEntry> window, String[] names) {}

    public static String key(String graphId, int slot, int index) {
        return graphId + "/" + slot + "/" + index;
    }

    public static String validKey(String graphId, int slot) {
        return graphId + "/" + slot + "/" + VALID_KEY;
    }

    /** The graph id of a key ({@code g/s/x}), or null when it is not one of ours. */
    public static String graphOf(String key) {
        int b = key == null ? -1 : key.lastIndexOf('/');
        int a = b <= 0 ? -1 : key.lastIndexOf('/', b - 1);
        return a <= 0 ? null : key.substring(0, a);
    }

    /**
     * Writes the chunks of {@code t} to {@code out}, in index order: edges per chunk at most {@code edgesPerChunk}, the
     * window spread over the chunks' headers (more chunks when it needs them), then the names in chunks of their own of
     * at most {@code edgesPerChunk * 16} bytes (what a chunk's edges take). Returns the chunk count.
     */
    public static int encode(Taken t, int edgesPerChunk, Consumer<Out> out) {
        List<byte[]> slices = windowSlices(t.window());
        CsrGraph g = t.graph();
        long m = g.edgeCount();
        int edgeChunks = (int) Math.max(Math.max(1, slices.size()), (m + edgesPerChunk - 1) / edgesPerChunk);
        List<int[]> names = nameSlices(t.names(), 16L * edgesPerChunk);
        int count = edgeChunks + names.size();
        int per = (int) Math.min(edgesPerChunk, Math.max(1, (m + edgeChunks - 1) / edgeChunks));
        int[] s = new int[per], d = new int[per];
        double[] w = new double[per];
        int first = t.firstVertexId(), chunk = 0, filled = 0;
        for (int u = 0; u < g.vertexCount(); u++) {
            // either form: a wide graph (more arcs than an int indexes) is read by 64-bit arc from its pages
            for (long arc = g.rowStartLong(u), end = g.rowEndLong(u); arc < end; arc++) {
                int v = g.targetAt(arc);
                if (!g.directed() && v < u) continue;
                s[filled] = u + first;
                d[filled] = v + first;
                w[filled] = g.weightAt(arc);
                if (++filled == per && chunk < edgeChunks - 1) {
                    out.accept(chunk(t, chunk++, count, s, d, w, filled, slices, null));
                    filled = 0;
                }
            }
        }
        while (chunk < count) {
            int[] slice = chunk < edgeChunks ? null : names.get(chunk - edgeChunks);
            out.accept(chunk(t, chunk++, count, s, d, w, filled, slices, slice));
            filled = 0;
        }
        return count;
    }

    /** The names as ranges {@code [from, to)} of at most {@code maxBytes} bytes of Avro each (one name at least). */
    static List<int[]> nameSlices(String[] names, long maxBytes) {
        List<int[]> slices = new ArrayList<>();
        if (names == null) return slices;
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < names.length; i++) {
            long b = names[i].getBytes(StandardCharsets.UTF_8).length + 5L;
            if (i > from && bytes + b > maxBytes) {
                slices.add(new int[] {from, i});
                from = i;
                bytes = 0;
            }
            bytes += b;
        }
        if (names.length > 0 || slices.isEmpty()) slices.add(new int[] {from, names.length});
        return slices;
    }

    private static Out chunk(Taken t, int index, int count, int[] s, int[] d, double[] w, int n, List<byte[]> slices,
                             int[] names) {
        GraphSnapshotChunk c = GraphSnapshotChunk.newBuilder().setGraphId(t.graphId()).setVersion(t.version())
                .setChunkIndex(index).setChunkCount(count).setVertexCount(t.graph().vertexCount())
                .setEdgeCount(t.graph().edgeCount()).setDirected(t.graph().directed()).setFirstVertexId(t.firstVertexId())
                .setEdges(PackedArrays.edgeBatch(java.util.Arrays.copyOf(s, n), java.util.Arrays.copyOf(d, n),
                        java.util.Arrays.copyOf(w, n)))
                .setNamed(t.names() != null).setNamesOffset(names == null ? 0 : names[0])
                .setNames(names == null ? List.of() : java.util.Arrays.asList(t.names()).subList(names[0], names[1]))
                .build();
        Headers h = new RecordHeaders();
        h.add(new RecordHeader(HEADER, header(new Meta(t.offset(), t.lineage(), t.version(), t.partition(), t.slot(), index, count))));
        if (index < slices.size()) h.add(new RecordHeader(WINDOW, slices.get(index)));
        return new Out(key(t.graphId(), t.slot(), index), FrontierCodec.encode(c), h);
    }

    /** The validity marker of a checkpoint: unchanged from its offset through {@code validThrough}. */
    public static Out marker(String graphId, Meta checkpoint, long validThrough) {
        Headers h = new RecordHeaders();
        h.add(new RecordHeader(HEADER, header(checkpoint)));
        h.add(new RecordHeader(VALID, ByteBuffer.allocate(Long.BYTES).putLong(validThrough).array()));
        return new Out(validKey(graphId, checkpoint.slot()), new byte[0], h);
    }

    /**
     * Marks chunk 0 of a checkpoint with the keys each slot of its graph may hold: {@code chunks[slot]} chunk indexes
     * and {@code subs[slot]} subscription indexes.
     */
    static void slots(Out chunk0, int[] chunks, int[] subs) {
        chunk0.headers().add(new RecordHeader(SLOTS, ByteBuffer.allocate(4 * Integer.BYTES).putInt(chunks[0]).putInt(chunks[1])
                .putInt(subs[0]).putInt(subs[1]).array()));
    }

    /** What chunk 0 declares in {@link #SLOTS}: chunk keys of slots 0, 1, subscription keys of slots 0, 1; null when none. */
    static int[] slots(Headers chunk0) {
        Header h = chunk0.lastHeader(SLOTS);
        if (h == null || h.value() == null || h.value().length != 4 * Integer.BYTES) return null;
        ByteBuffer b = ByteBuffer.wrap(h.value());
        return new int[] {b.getInt(), b.getInt(), b.getInt(), b.getInt()};
    }

    static byte[] header(Meta m) {
        return ByteBuffer.allocate(HEADER_BYTES).putLong(m.offset()).putLong(m.lineage()).putLong(m.version())
                .putInt(m.partition()).putInt(m.slot()).putInt(m.index()).putInt(m.count()).array();
    }

    /** The checkpoint header of a record, or null when it has none (or a malformed one). */
    public static Meta meta(Headers headers) {
        Header h = headers.lastHeader(HEADER);
        return h == null ? null : meta(h.value());
    }

    /** A header in the layout of {@link #HEADER}, read; null when malformed. */
    static Meta meta(byte[] header) {
        if (header == null || header.length != HEADER_BYTES) return null;
        ByteBuffer b = ByteBuffer.wrap(header);
        return new Meta(b.getLong(), b.getLong(), b.getLong(), b.getInt(), b.getInt(), b.getInt(), b.getInt());
    }

    /** The offset a validity marker extends its checkpoint to, or -1. */
    public static long validThrough(Headers headers) {
        Header h = headers.lastHeader(VALID);
        return h == null || h.value() == null || h.value().length != Long.BYTES ? -1 : ByteBuffer.wrap(h.value()).getLong();
    }

    /**
     * The checkpoint in these chunk records (index order, complete, one checkpoint: the caller checked their
     * headers), valid through {@code validThrough}.
     */
    public static Checkpoint decode(String graphId, List<byte[]> values, List<Headers> headers, long validThrough)
            throws FrontierCodec.MalformedMessageException {
        Meta m = meta(headers.get(0));
        GraphSnapshotChunk head = null;
        CsrAssembly graph = null;
        List<WindowEntry> window = new ArrayList<>();
        String[] names = null;
        for (int i = 0; i < values.size(); i++) {
            GraphSnapshotChunk c = FrontierCodec.decode(values.get(i), GraphSnapshotChunk.class);
            if (head == null) {
                head = c;
                graph = new CsrAssembly(c.getVertexCount(), c.getDirected(), c.getFirstVertexId());
                if (c.getNamed()) names = new String[c.getVertexCount()];
            }
            if (names != null) {
                List<String> slice = c.getNames();
                for (int k = 0; k < slice.size(); k++) names[c.getNamesOffset() + k] = slice.get(k);
            }
            graph.add(i, graph.decode(PackedArrays.ints(c.getEdges().getSources()), PackedArrays.ints(c.getEdges().getTargets()),
                    PackedArrays.doubles(c.getEdges().getWeights())));
            Header slice = headers.get(i).lastHeader(WINDOW);
            if (slice != null) readSlice(slice.value(), window);
        }
        if (graph.edges() != head.getEdgeCount()) {
            throw new IllegalStateException("checkpoint of graph '" + graphId + "' holds " + graph.edges() + " edges, declares "
                    + head.getEdgeCount());
        }
        if (names != null && java.util.Arrays.asList(names).contains(null)) {
            throw new IllegalStateException("checkpoint of graph '" + graphId + "' does not name all its " + names.length + " vertices");
        }
        int first = head.getFirstVertexId();
        return new Checkpoint(graphId, m.partition(), m.slot(), m.offset(), Math.max(m.offset(), validThrough), m.version(),
                m.lineage(), first, graph, window, names);
    }

    static List<byte[]> windowSlices(List<WindowEntry> window) {
        List<byte[]> slices = new ArrayList<>();
        ByteBuffer b = null;
        int count = 0;
        for (WindowEntry e : window) {
            byte[] id = e.updateId().getBytes(StandardCharsets.UTF_8);
            int need = Integer.BYTES + id.length + Long.BYTES + 1;
            if (b == null || b.remaining() < need) {
                if (b != null) slices.add(finish(b, count));
                b = ByteBuffer.allocate(Math.max(WINDOW_BYTES_PER_CHUNK, need + Integer.BYTES));
                b.putInt(0);
                count = 0;
            }
            b.putInt(id.length).put(id).putLong(e.version()).put((byte) (e.currentLineage() ? 1 : 0));
            count++;
        }
        if (b != null) slices.add(finish(b, count));
        return slices;
    }

    private static byte[] finish(ByteBuffer b, int count) {
        b.putInt(0, count);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    private static void readSlice(byte[] slice, List<WindowEntry> into) {
        ByteBuffer b = ByteBuffer.wrap(slice);
        int count = b.getInt();
        for (int i = 0; i < count; i++) {
            byte[] id = new byte[b.getInt()];
            b.get(id);
            into.add(new WindowEntry(new String(id, StandardCharsets.UTF_8), b.getLong(), b.get() == 1));
        }
    }
}
