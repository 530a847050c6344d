package org.frontiergraph.bench.peers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * Writes a {@link CsrGraph} in the binary formats of the peers, little-endian, streamed through one 1 MiB buffer
 * (a Kronecker 22 graph has 128 M arcs: nothing the size of the graph is allocated here, except the symmetric CSR of
 * a directed graph for {@code .egr}).
 * <ul>
 *   <li>gapbs serialized CSR ({@code src/reader.h ReadSerializedGraph}): {@code bool directed} (1 byte),
 *       {@code int64 arcs}, {@code int64 n}, {@code int64 offsets[n+1]}, then {@code int32 neighbours[arcs]}
 *       ({@code .sg}) or {@code {int32 v, int32 w}[arcs]} ({@code .wsg}); a directed graph then repeats offsets and
 *       neighbours for the in-arcs (the transpose), which gapbs's direction-optimizing BFS reads.</li>
 *   <li>ECL-MST ECLgraph {@code .egr} ({@code source/ECLgraph.h readECLgraph}): {@code int32 nodes},
 *       {@code int32 edges} (arcs), {@code int32 nindex[nodes+1]}, {@code int32 nlist[edges]},
 *       {@code int32 eweight[edges]}; symmetric: both arcs of every edge of {@link CsrGraph#undirectedEdges()}
 *       (for a directed graph, the minimum weight of u->v and v->u, as Frontier's MST takes it), rows sorted.</li>
 * </ul>
 * Rows are written sorted by target, so ECL-MST's tie-break (weight, index of the arc u->v, u < v) orders edges as
 * Frontier's (weight, edge id) does, and both compute the same spanning forest.
 */
public final class PeerFiles {
    private static final int BUFFER = 1 << 20;

    private PeerFiles() {}

    /** gapbs {@code .sg}: the unweighted CSR (and its transpose when directed). */
    public static void writeSg(CsrGraph g, Path file) throws IOException {
        writeGapbs(g, file, false);
    }

    /**
     * gapbs {@code .wsg}: the CSR with int32 weights (and its transpose when directed).
     *
     * @throws IllegalArgumentException when a weight is not an integer in 0..2^31-1 (gapbs weights are int32)
     */
    public static void writeWsg(CsrGraph g, Path file) throws IOException {
        requireInt32Weights(g);
        writeGapbs(g, file, true);
    }

    /**
     * ECL-MST {@code .egr}: the symmetric CSR of the undirected graph underneath {@code g}, int32 weights.
     *
     * @throws IllegalArgumentException when a weight is not an integer in 0..2^31-1, or the graph has too many
     *                                  arcs for ECLgraph's int32 counts
     */
    public static void writeEgr(CsrGraph g, Path file) throws IOException {
        requireInt32Weights(g);
        if (!g.directed()) {
            // an undirected CsrGraph is already symmetric, rows sorted, the same weight on both arcs
            try (Out out = new Out(file)) {
                out.i32(g.vertexCount());
                out.i32(g.arcCount());
                for (int o : g.rowOffsets()) out.i32(o);
                for (int c : g.columns()) out.i32(c);
                for (double w : g.weights()) out.i32((int) w);
            }
            return;
        }
        UndirectedEdges e = g.undirectedEdges();
        int n = g.vertexCount(), m = e.size();
        if (m > (Integer.MAX_VALUE - 8) / 2) {
            throw new IllegalArgumentException("ECL-MST .egr counts arcs in int32: " + m + " undirected edges are "
                    + "too many");
        }
        int[] offsets = new int[n + 1];
        for (int i = 0; i < m; i++) {
            offsets[e.u[i] + 1]++;
            offsets[e.v[i] + 1]++;
        }
        for (int v = 0; v < n; v++) offsets[v + 1] += offsets[v];
        int[] fill = offsets.clone();
        int[] targets = new int[2 * m], weights = new int[2 * m];
        // edges come in (u, v) order, u < v: filling both arcs in that order leaves every row sorted
        for (int i = 0; i < m; i++) {
            int a = e.u[i], b = e.v[i], w = (int) e.w[i];
            targets[fill[a]] = b;
            weights[fill[a]++] = w;
            targets[fill[b]] = a;
            weights[fill[b]++] = w;
        }
        try (Out out = new Out(file)) {
            out.i32(n);
            out.i32(2 * m);
            for (int o : offsets) out.i32(o);
            for (int t : targets) out.i32(t);
            for (int w : weights) out.i32(w);
        }
    }

    /** An answer array (BFS levels, SSSP distances) as raw little-endian int32, for the agreement checks. */
    static void writeInts(Path file, int[] values) throws IOException {
        try (Out out = new Out(file)) {
            for (int v : values) out.i32(v);
        }
    }

    /**
     * Refuses weights the peers cannot read: gapbs and ECL-MST store int32 weights.
     *
     * @throws IllegalArgumentException naming the first arc whose weight is not an integer in 0..2^31-1
     */
    static void requireInt32Weights(CsrGraph g) {
        if (g.integralWeights()) return;
        double[] w = g.weights();
        int[] off = g.rowOffsets(), col = g.columns();
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int a = off[u]; a < off[u + 1]; a++) {
                if (!(w[a] == Math.rint(w[a]) && w[a] >= 0 && w[a] <= Integer.MAX_VALUE)) {
                    throw new IllegalArgumentException("the peers read int32 weights, but arc " + u + "->" + col[a]
                            + " has weight " + w[a] + " (not an integer in 0.." + Integer.MAX_VALUE + ")");
                }
            }
        }
    }

    private static void writeGapbs(CsrGraph g, Path file, boolean weighted) throws IOException {
        try (Out out = new Out(file)) {
            out.bool(g.directed());
            out.i64(g.arcCount());
            out.i64(g.vertexCount());
            csr(out, g, weighted);
            if (g.directed()) csr(out, g.transpose(), weighted);
        }
    }

    private static void csr(Out out, CsrGraph g, boolean weighted) throws IOException {
        for (int o : g.rowOffsets()) out.i64(o);
        int[] col = g.columns();
        double[] w = g.weights();
        for (int a = 0; a < col.length; a++) {
            out.i32(col[a]);
            if (weighted) out.i32((int) w[a]);
        }
    }

    /** A file written through one little-endian direct buffer. */
    private static final class Out implements AutoCloseable {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.LITTLE_ENDIAN);

        Out(Path file) throws IOException {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        }

        void bool(boolean b) throws IOException {
            room(1);
            buffer.put((byte) (b ? 1 : 0));
        }

        void i32(int v) throws IOException {
            room(4);
            buffer.putInt(v);
        }

        void i64(long v) throws IOException {
            room(8);
            buffer.putLong(v);
        }

        private void room(int bytes) throws IOException {
            if (buffer.remaining() < bytes) flush();
        }

        private void flush() throws IOException {
            buffer.flip();
            while (buffer.hasRemaining()) channel.write(buffer);
            buffer.clear();
        }

        @Override
        public void close() throws IOException {
            try {
                flush();
            } finally {
                channel.close();
            }
        }
    }
}
