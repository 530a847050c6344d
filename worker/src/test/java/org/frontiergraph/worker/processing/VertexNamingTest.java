package org.frontiergraph.worker.processing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.NamedEdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Named vertices through the processor (real Avro bytes in): a named snapshot, queries and subscriptions by name
 * answered with the names of every vertex a chunk mentions (checked against Dijkstra on the integer graph mapped
 * through the names), updates by name with new names, and every refusal: UNKNOWN_NAME for a name no vertex has (the
 * version kept), INVALID_SNAPSHOT for names that do not name every vertex once, INVALID_UPDATE for taken names.
 */
class VertexNamingTest {
    private static final String G = "net";
    private static final List<String> NAMES = List.of("alice", "bob", "carol", "dave, jr", "eve");
    /** (u, v, w) in positions: a directed graph. */
    private static final double[] EDGES = {0, 1, 4, 1, 2, 1, 0, 2, 9, 2, 3, 2, 4, 0, 1};

    private final Fixtures.Services services = Fixtures.start(Fixtures.cpuConfig());
    private long offset;

    @AfterEach
    void close() {
        services.close();
    }

    private Outputs process(SpecificRecord r, String key) {
        return services.processor().process(new InputRecord("frontier.graphs", 0, offset++, key, FrontierCodec.encode(r),
                System.currentTimeMillis()), false);
    }

    private void load(List<String> names) {
        EdgeList e = Fixtures.edges(names.size(), true, EDGES);
        for (GraphSnapshotChunk c : Fixtures.named(Fixtures.snapshot(G, 1, e, 0, 2), names)) {
            Outputs out = process(c, G);
            assertTrue(out.errors().isEmpty(), out.errors()::toString);
        }
    }

    private static Map<Integer, String> names(List<QueryResult> chunks) {
        Map<Integer, String> m = new HashMap<>();
        for (QueryResult c : chunks) {
            int[] ids = PackedArrays.toIntArray(c.getNameIds());
            for (int i = 0; i < ids.length; i++) m.put(ids[i], c.getNames().get(i));
        }
        return m;
    }

    /** Distances of an SSSP answer by name, through its chunks' names. */
    private static Map<String, Double> byName(List<QueryResult> chunks) {
        Map<Integer, String> names = names(chunks);
        Map<String, Double> d = new HashMap<>();
        for (QueryResult c : chunks) {
            CompactArrays.expand(c);   // a DELTA push's arrays are compact (the default)
            double[] x = PackedArrays.toDoubleArray(c.getDistances());
            int[] at = c.getVertices() == null ? null : PackedArrays.toIntArray(c.getVertices());
            for (int i = 0; i < x.length; i++) d.put(names.get(at == null ? c.getFirstVertexId() + c.getOffset() + i : at[i]), x[i]);
        }
        return d;
    }

    private static Map<String, Double> reference(List<String> names, double[] edges, String source) {
        double[] d = DijkstraReference.run(GraphBuilder.build(Fixtures.edges(names.size(), true, edges)), names.indexOf(source)).distances();
        Map<String, Double> m = new HashMap<>();
        for (int v = 0; v < names.size(); v++) m.put(names.get(v), d[v]);
        return m;
    }

    @Test
    void aQueryByNameIsAnsweredWithTheNamesOfEveryVertexItMentions() {
        load(NAMES);
        Outputs out = process(GraphQuery.newBuilder().setQueryId("q").setGraphId(G).setAlgorithm(Algorithm.SSSP)
                .setSourceName("alice").build(), G);
        assertTrue(out.errors().isEmpty(), out.errors()::toString);
        assertEquals(ResultStatus.OK, out.results().get(0).getStatus());
        assertEquals(reference(NAMES, EDGES, "alice"), byName(out.results()));
        Map<Integer, String> named = names(out.results());
        for (int v = 0; v < NAMES.size(); v++) assertEquals(NAMES.get(v), named.get(v), "every position and parent is named");

        Outputs targets = process(GraphQuery.newBuilder().setQueryId("t").setGraphId(G).setAlgorithm(Algorithm.BFS)
                .setSourceName("eve").setResultMode(ResultMode.TARGETS).setTargetNames(List.of("dave, jr")).build(), G);
        QueryResult t = targets.results().get(0);
        assertArrayEquals(new int[] {3}, PackedArrays.toIntArray(t.getVertices()));
        assertArrayEquals(new int[] {4}, new int[] {t.getSource()});
        assertEquals(Map.of(2, "carol", 3, "dave, jr", 4, "eve"), names(targets.results()),
                "the target, its parent and the source: the ids the chunk holds");

        Outputs plain = process(Fixtures.query("p", G, Algorithm.SSSP, 0).build(), G);
        assertNull(plain.results().get(0).getNameIds(), "a query by id: no names");
        Outputs mst = process(GraphQuery.newBuilder().setQueryId("m").setGraphId(G).setAlgorithm(Algorithm.MST).setWithNames(true).build(), G);
        assertEquals(NAMES.size(), names(mst.results()).size(), "withNames: the forest's endpoints named");
    }

    @Test
    void anUnknownNameIsRefusedAndTheWorkerGoesOn() {
        load(NAMES);
        Outputs out = process(GraphQuery.newBuilder().setQueryId("q").setGraphId(G).setAlgorithm(Algorithm.BFS)
                .setSourceName("mallory").build(), G);
        assertEquals(ErrorCode.UNKNOWN_NAME.name(), out.errors().get(0).getCode());
        assertTrue(out.errors().get(0).getReason().contains("'mallory'"), out.errors().get(0).getReason());
        assertEquals(ResultStatus.UNKNOWN_NAME, out.results().get(0).getStatus());

        Outputs update = process(GraphUpdate.newBuilder().setGraphId(G)
                .setAddedByName(new NamedEdgeBatch(List.of("alice"), List.of("mallory"), PackedArrays.pack(new double[] {1}))).build(), G);
        assertEquals(ErrorCode.UNKNOWN_NAME.name(), update.errors().get(0).getCode());
        assertEquals(1, services.registry().get(G).orElseThrow().version(), "the version kept");

        Outputs both = process(GraphQuery.newBuilder().setQueryId("b").setGraphId(G).setAlgorithm(Algorithm.BFS).setSource(0)
                .setSourceName("alice").build(), G);
        assertEquals(ErrorCode.INVALID_QUERY.name(), both.errors().get(0).getCode());
        assertEquals(ResultStatus.OK, process(GraphQuery.newBuilder().setQueryId("ok").setGraphId(G).setAlgorithm(Algorithm.BFS)
                .setSourceName("alice").build(), G).results().get(0).getStatus());

        process(Fixtures.snapshot("plain", 1, Fixtures.edges(2, true, 0, 1, 1), 0, 10).get(0), "plain");
        Outputs unnamed = process(GraphQuery.newBuilder().setQueryId("u").setGraphId("plain").setAlgorithm(Algorithm.BFS)
                .setSourceName("alice").build(), "plain");
        assertEquals(ErrorCode.UNKNOWN_NAME.name(), unnamed.errors().get(0).getCode());
        assertTrue(unnamed.errors().get(0).getReason().contains("loaded without names"), unnamed.errors().get(0).getReason());
    }

    @Test
    void anUpdateByNameAddsNamedVerticesAndASubscriptionByNameSeesThem() {
        load(NAMES);
        Outputs initial = process(Subscription.newBuilder().setSubscriptionId("s").setGraphId(G).setAlgorithm(Algorithm.SSSP)
                .setSourceName("alice").build(), G);
        assertTrue(initial.errors().isEmpty(), initial.errors()::toString);
        Outputs first = services.processor().flushSubscriptions(p -> true, System.currentTimeMillis());
        assertEquals(reference(NAMES, EDGES, "alice"), byName(first.results()));

        Outputs applied = process(GraphUpdate.newBuilder().setGraphId(G).setAddedVertexNames(List.of("frank"))
                .setAddedByName(new NamedEdgeBatch(List.of("dave, jr"), List.of("frank"), PackedArrays.pack(new double[] {0.5})))
                .setReweightedByName(new NamedEdgeBatch(List.of("bob"), List.of("carol"), PackedArrays.pack(new double[] {20})))
                .build(), G);
        assertTrue(applied.errors().isEmpty(), applied.errors()::toString);
        List<String> names = new ArrayList<>(NAMES);
        names.add("frank");
        double[] edges = {0, 1, 4, 1, 2, 20, 0, 2, 9, 2, 3, 2, 4, 0, 1, 3, 5, 0.5};
        Map<String, Double> expected = reference(names, edges, "alice");
        Outputs delta = services.processor().flushSubscriptions(p -> true, System.currentTimeMillis());
        Map<String, Double> pushed = byName(delta.results());
        assertTrue(pushed.containsKey("frank"), pushed::toString);
        pushed.forEach((n, d) -> assertEquals(expected.get(n), d, n));

        assertEquals(ErrorCode.INVALID_UPDATE.name(), process(GraphUpdate.newBuilder().setGraphId(G)
                .setAddedVertexNames(List.of("bob")).build(), G).errors().get(0).getCode(), "a taken name");
        assertEquals(ErrorCode.INVALID_UPDATE.name(), process(GraphUpdate.newBuilder().setGraphId(G)
                .setAddedVertexCount(1).build(), G).errors().get(0).getCode(), "a named graph's new vertex without a name");
        assertEquals(2, services.registry().get(G).orElseThrow().version());
        assertEquals(5, services.registry().get(G).orElseThrow().names().position("frank"));
    }

    @Test
    void aSnapshotMustNameEveryVertexOnce() {
        List<GraphSnapshotChunk> repeated = Fixtures.named(Fixtures.snapshot(G, 1, Fixtures.edges(3, true, 0, 1, 1), 0, 1),
                List.of("a", "b", "a"));
        assertEquals(ErrorCode.INVALID_SNAPSHOT.name(), process(repeated.get(0), G).errors().get(0).getCode());
        GraphSnapshotChunk short1 = GraphSnapshotChunk.newBuilder(Fixtures.snapshot(G, 2, Fixtures.edges(3, true, 0, 1, 1), 0, 1).get(0))
                .setNamed(true).setNames(List.of("a", "b")).build();
        assertTrue(process(short1, G).errors().get(0).getReason().contains("name 2 of its 3 vertices"));
        GraphSnapshotChunk unnamed = GraphSnapshotChunk.newBuilder(Fixtures.snapshot(G, 3, Fixtures.edges(2, true, 0, 1, 1), 0, 1).get(0))
                .setNames(List.of("a", "b")).build();
        assertEquals(ErrorCode.INVALID_SNAPSHOT.name(), process(unnamed, G).errors().get(0).getCode());
        assertTrue(services.registry().get(G).isEmpty());
    }
}
