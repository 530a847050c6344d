package org.frontiergraph.worker.support;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.query.QueryService;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.subscription.PushBacklog;
import org.frontiergraph.worker.subscription.SubscriptionService;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.function.Executable;

/**
 * The worker's services wired by plain constructors (no Micronaut context, no broker), on the CPU engine, and
 * builders for the records the tests feed them.
 */
public final class Fixtures {
    private Fixtures() {}

    /** A CPU-only configuration; tests change limits on the returned object before starting the services. */
    public static FrontierConfig cpuConfig() {
        FrontierConfig c = new FrontierConfig();
        c.setBackend("cpu");
        c.setWorkerId("unit-test-worker");
        return c;
    }

    /** Every service of a worker, closed together. */
    public record Services(FrontierConfig config, EngineService engines, GraphRegistry registry, QueryService queries,
                           SimpleMeterRegistry meters, FrontierMetrics metrics, SubscriptionService subscriptions,
                           GraphEventProcessor processor)
            implements AutoCloseable {
        @Override
        public void close() {
            registry.close();
            engines.close();
            meters.close();
        }

        /** Installs every chunk of a snapshot; fails the test unless the last chunk installed the version. */
        public void install(List<GraphSnapshotChunk> chunks, int partition) {
            boolean installed = false;
            for (GraphSnapshotChunk c : chunks) installed = registry.acceptChunk(c, partition).installed().isPresent();
            Assertions.assertTrue(installed, "the last chunk of " + chunks.get(0).getGraphId() + " did not install it");
        }
    }

    public static Services start(FrontierConfig config) {
        EngineService engines = new EngineService(config);
        return start(config, engines);
    }

    public static Services start(FrontierConfig config, EngineService engines) {
        return start(config, engines, PushBacklog.NONE);
    }

    /** With {@code backlog} telling which subscriptions have a push unacknowledged (their next UPDATE waits). */
    public static Services start(FrontierConfig config, EngineService engines, PushBacklog backlog) {
        GraphRegistry registry = new GraphRegistry(engines, config);
        QueryService queries = new QueryService(registry, engines, config);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        FrontierMetrics metrics = new FrontierMetrics(meters, registry);
        SubscriptionService subscriptions = new SubscriptionService(registry, engines, config, meters, backlog);
        return new Services(config, engines, registry, queries, meters, metrics, subscriptions,
                new GraphEventProcessor(registry, queries, subscriptions, metrics, config));
    }

    /** Snapshot chunks of at most {@code chunkEdges} edges, weights included, ids shifted by {@code first}. */
    public static List<GraphSnapshotChunk> snapshot(String graphId, long version, EdgeList edges, int first, int chunkEdges) {
        int m = edges.size();
        int count = Math.max(1, (m + chunkEdges - 1) / chunkEdges);
        List<GraphSnapshotChunk> chunks = new ArrayList<>(count);
        for (int c = 0; c < count; c++) {
            int from = c * chunkEdges, to = Math.min(m, (c + 1) * chunkEdges);
            ByteBuffer s = PackedArrays.int32Buffer(to - from), t = PackedArrays.int32Buffer(to - from);
            for (int i = from; i < to; i++) {
                s.putInt(edges.source(i) + first);
                t.putInt(edges.target(i) + first);
            }
            chunks.add(GraphSnapshotChunk.newBuilder()
                    .setGraphId(graphId).setVersion(version).setChunkIndex(c).setChunkCount(count)
                    .setVertexCount(edges.vertexCount()).setEdgeCount(m).setDirected(edges.directed())
                    .setFirstVertexId(first)
                    .setEdges(new EdgeBatch(s.flip(), t.flip(), PackedArrays.pack(edges.weightsArray(), from, to))).build());
        }
        return chunks;
    }

    /** The chunks of a snapshot named: {@code names} (position order) spread over them in order, as evenly as they go. */
    public static List<GraphSnapshotChunk> named(List<GraphSnapshotChunk> chunks, List<String> names) {
        List<GraphSnapshotChunk> out = new ArrayList<>(chunks.size());
        int k = chunks.size();
        for (int c = 0; c < k; c++) {
            int from = (int) ((long) names.size() * c / k), to = (int) ((long) names.size() * (c + 1) / k);
            out.add(GraphSnapshotChunk.newBuilder(chunks.get(c)).setNamed(true).setNamesOffset(from)
                    .setNames(names.subList(from, to)).build());
        }
        return out;
    }

    /** An edge list from (u, v, w) triples, 0-based. */
    public static EdgeList edges(int n, boolean directed, double... triples) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < triples.length; i += 3) e.add((int) triples[i], (int) triples[i + 1], triples[i + 2]);
        return e;
    }

    /** One chunk with the given header, edges as (u, v, w) triples in user ids. */
    public static GraphSnapshotChunk chunk(String graphId, long version, int index, int count, int vertexCount,
                                           long edgeCount, boolean directed, int first, double... triples) {
        return GraphSnapshotChunk.newBuilder()
                .setGraphId(graphId).setVersion(version).setChunkIndex(index).setChunkCount(count)
                .setVertexCount(vertexCount).setEdgeCount(edgeCount).setDirected(directed).setFirstVertexId(first)
                .setEdges(weighted(triples)).build();
    }

    /** An edge batch from (u, v, w) triples. */
    public static EdgeBatch weighted(double... triples) {
        int m = triples.length / 3;
        int[] s = new int[m], t = new int[m];
        double[] w = new double[m];
        for (int i = 0; i < m; i++) {
            s[i] = (int) triples[3 * i];
            t[i] = (int) triples[3 * i + 1];
            w[i] = triples[3 * i + 2];
        }
        return PackedArrays.edgeBatch(s, t, w);
    }

    /** An edge batch without weights from (u, v) pairs. */
    public static EdgeBatch pairs(int... pairs) {
        int m = pairs.length / 2;
        int[] s = new int[m], t = new int[m];
        for (int i = 0; i < m; i++) {
            s[i] = pairs[2 * i];
            t[i] = pairs[2 * i + 1];
        }
        return PackedArrays.edgeBatch(s, t, new double[0]);
    }



    public static GraphQuery.Builder query(String queryId, String graphId, Algorithm algorithm, Integer source) {
        return GraphQuery.newBuilder().setQueryId(queryId).setGraphId(graphId).setAlgorithm(algorithm).setSource(source);
    }

    /** Asserts that {@code body} is rejected with {@code code}; returns the exception for further checks. */
    public static RejectedException assertRejected(ErrorCode code, Executable body) {
        RejectedException e = Assertions.assertThrows(RejectedException.class, body);
        Assertions.assertEquals(code, e.code(), () -> "rejected with " + e.code() + " (" + e.getMessage() + "), expected " + code);
        return e;
    }

    /** Asserts that two graphs are the same CSR (vertices, direction, rows, targets, weights, edge ids). */
    public static void assertSameGraph(CsrGraph expected, CsrGraph actual, String context) {
        Assertions.assertEquals(expected.vertexCount(), actual.vertexCount(), context + ": vertexCount");
        Assertions.assertEquals(expected.directed(), actual.directed(), context + ": directed");
        Assertions.assertEquals(expected.edgeCount(), actual.edgeCount(), context + ": edgeCount");
        Assertions.assertArrayEquals(expected.rowOffsets(), actual.rowOffsets(), context + ": row offsets");
        Assertions.assertArrayEquals(expected.columns(), actual.columns(), context + ": columns");
        Assertions.assertArrayEquals(expected.weights(), actual.weights(), context + ": weights");
        Assertions.assertArrayEquals(expected.arcEdgeIds(), actual.arcEdgeIds(), context + ": arc edge ids");
    }
}
