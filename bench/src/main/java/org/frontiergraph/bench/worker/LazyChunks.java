package org.frontiergraph.bench.worker;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.SnapshotEdges;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.GraphSnapshotChunk;

/**
 * {@link ScaleBench}'s snapshot chunks as {@link FrontierClient#chunks} packs them ({@code chunkEdges} edges a chunk),
 * each made when the client first asks for it and forgotten when it asks again (to send it, after encoding it ahead),
 * so that the publisher holds its edge list and a few chunks rather than a second copy of the graph: what a publisher
 * of a large graph would do. Once {@link #stop}ped, a new chunk asked for throws, which ends {@code publishChunks}.
 * Used by one thread.
 */
final class LazyChunks extends AbstractList<GraphSnapshotChunk> {
    private final String id;
    private final long version;
    private final EdgeList edges;
    private final int count;
    private final int chunkEdges;
    private final Map<Integer, GraphSnapshotChunk> made = new HashMap<>();
    private volatile boolean stop;
    private volatile int madeCount;

    LazyChunks(String id, long version, EdgeList edges, int chunkEdges) {
        this.id = id;
        this.version = version;
        this.edges = edges;
        this.chunkEdges = chunkEdges;
        this.count = Math.max(1, (edges.size() + chunkEdges - 1) / chunkEdges);
    }

    @Override
    public int size() { return count; }

    /** Makes every later chunk asked for throw: the client stops publishing (a refused version). */
    void stop() { stop = true; }

    boolean stopped() { return stop; }

    /** Chunks made so far. */
    int made() { return madeCount; }

    @Override
    public GraphSnapshotChunk get(int c) {
        GraphSnapshotChunk chunk = made.remove(c);
        if (chunk != null) return chunk;
        if (stop) throw new IllegalStateException("the worker refused the version: publishing stopped");
        madeCount++;
        int from = c * chunkEdges, to = Math.min(edges.size(), from + chunkEdges);
        SnapshotEdges slice = new SnapshotEdges(edges.vertexCount(), false, to - from,
                Arrays.copyOfRange(edges.sourcesArray(), from, to), Arrays.copyOfRange(edges.targetsArray(), from, to),
                Arrays.copyOfRange(edges.weightsArray(), from, to));
        chunk = GraphSnapshotChunk.newBuilder(FrontierClient.chunks(id, version, slice, 0, true, chunkEdges).get(0))
                .setChunkIndex(c).setChunkCount(count).setEdgeCount(edges.size()).build();
        made.put(c, chunk);
        return chunk;
    }
}
