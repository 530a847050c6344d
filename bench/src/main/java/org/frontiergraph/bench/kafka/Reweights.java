package org.frontiergraph.bench.kafka;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * The single-edge re-weights a run publishes, in order, and the graph they lead to: each picks a seeded random arc
 * of the loaded graph (so the edge exists) and a new positive integer weight around the old one (so the graph keeps
 * integer weights, as road and Kronecker graphs have). {@link #graphAt} replays them here to check answers on the
 * version the worker answered on.
 */
public final class Reweights implements UpdateSource {
    private final CsrGraph loaded;
    private final long loadedVersion;
    private final int first;
    private final SplittableRandom random;
    private int[] u = new int[1024], v = new int[1024];
    private double[] w = new double[1024];
    private int count;
    private CsrGraph graph;
    private int folded;

    /** Re-weights of {@code loaded}, which the worker holds as {@code version}; {@code first}: the user's id of vertex 0. */
    public Reweights(CsrGraph loaded, long version, int first, long seed) {
        if (loaded.arcCount() == 0) throw new IllegalArgumentException("a graph without edges has nothing to re-weight");
        this.loaded = loaded;
        this.loadedVersion = version;
        this.first = first;
        this.random = new SplittableRandom(seed);
        this.graph = loaded;
    }

    /** The next re-weight as an update record (the worker's version after it: {@link #version()}). */
    @Override
    public GraphUpdate next(String graphId) {
        int arc = random.nextInt(loaded.arcCount());
        int[] off = loaded.rowOffsets();
        int lo = 0, hi = loaded.vertexCount() - 1;   // the row holding arc: the last row starting at or before it
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (off[mid] <= arc) lo = mid; else hi = mid - 1;
        }
        double old = loaded.weights()[arc];
        double weight = 1 + random.nextInt((int) Math.max(1, Math.min(1 << 20, 2 * old)));
        if (count == u.length) {
            u = Arrays.copyOf(u, 2 * count);
            v = Arrays.copyOf(v, 2 * count);
            w = Arrays.copyOf(w, 2 * count);
        }
        u[count] = lo;
        v[count] = loaded.columns()[arc];
        w[count] = weight;
        count++;
        return GraphUpdate.newBuilder().setGraphId(graphId)
                .setReweighted(PackedArrays.edgeBatch(new int[] {lo + first}, new int[] {v[count - 1] + first}, new double[] {weight}))
                .build();
    }

    /** The version the worker holds once every re-weight made so far is applied. */
    @Override
    public long version() { return loadedVersion + count; }

    /** The graph at {@code version} (the loaded one plus the re-weights before it); versions must not go back. */
    @Override
    public CsrGraph graphAt(long version) {
        int upTo = Math.toIntExact(version - loadedVersion);
        if (upTo < folded || upTo > count) {
            throw new IllegalArgumentException("version " + version + " is not between " + (loadedVersion + folded) + " and " + version());
        }
        if (upTo > folded) {
            graph = GraphEdit.reweight(graph, Arrays.copyOfRange(u, folded, upTo), Arrays.copyOfRange(v, folded, upTo),
                    Arrays.copyOfRange(w, folded, upTo));
            folded = upTo;
        }
        return graph;
    }
}
