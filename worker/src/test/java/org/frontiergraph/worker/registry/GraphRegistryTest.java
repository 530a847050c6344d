package org.frontiergraph.worker.registry;

import static org.frontiergraph.worker.support.Fixtures.assertRejected;
import static org.frontiergraph.worker.support.Fixtures.assertSameGraph;
import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.frontiergraph.worker.support.Fixtures.pairs;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.frontiergraph.worker.support.Fixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.query.QueryAnswer;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.query.Answers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The registry installs whole versions only, applies updates as version + 1, and keeps the old version on any rejection. */
class GraphRegistryTest {
    private static final long SEED = 0x5eed_0002L;

    private Services services = Fixtures.start(Fixtures.cpuConfig());

    @AfterEach
    void close() {
        services.close();
    }

    private GraphRegistry registry() { return services.registry(); }

    private GraphEntry current(String graphId) { return registry().get(graphId).orElseThrow(); }

    @Test
    void installsAVersionOnceItsLastChunkArrives() {
        EdgeList edges = UniformRandomGraph.generate(1_000, 6_000, SEED, 50, true);
        List<GraphSnapshotChunk> chunks = snapshot("roads", 1, edges, 1, 1_000);
        assertEquals(6, chunks.size());
        for (int i = 0; i < chunks.size() - 1; i++) {
            GraphRegistry.Change c = registry().acceptChunk(chunks.get(i), 4);
            assertTrue(c.installed().isEmpty(), "seed " + SEED + ": installed after chunk " + i + " of 6");
            assertTrue(registry().get("roads").isEmpty());
        }
        assertTrue(registry().whyUnknown("roads").contains("5 of 6 chunks"), registry().whyUnknown("roads"));
        GraphEntry e = registry().acceptChunk(chunks.get(5), 4).installed().orElseThrow();
        assertEquals(1, e.version());
        assertEquals(4, e.partition());
        assertEquals(1, e.firstVertexId());
        assertEquals("cpu", e.resident().backend());
        assertSame(e, current("roads"));
        assertSameGraph(GraphBuilder.build(edges), e.resident().graph(), "seed " + SEED);
        assertEquals(0, registry().pendingSnapshotBytes());
        assertEquals(e.resident().residentBytes(), registry().residentBytes("cpu"));
        assertEquals(0, registry().residentBytes("gpu"));
    }

    @Test
    void aQueryNeverSeesAHalfLoadedVersion() {
        EdgeList v1 = UniformRandomGraph.generate(800, 4_000, SEED, 20, false);
        EdgeList v2 = UniformRandomGraph.generate(800, 4_000, SEED + 1, 20, false);
        CsrGraph g1 = GraphBuilder.build(v1);
        services.install(snapshot("g", 1, v1, 0, 1_000), 0);
        GraphEntry e1 = current("g");
        List<GraphSnapshotChunk> c2 = snapshot("g", 2, v2, 0, 500);
        assertEquals(8, c2.size());
        for (int i = 0; i < c2.size() - 1; i++) {
            registry().acceptChunk(c2.get(i), 0);
            assertSame(e1, current("g"), "after chunk " + i + " of version 2, version 1 is still current");
        }
        // what a query would run on right now is version 1, intact
        assertSameGraph(g1, current("g").resident().graph(), "version 1 (seed " + SEED + ")");
        SsspResult r = Sssp.run(current("g").resident(), 0, null);
        assertTrue(SsspVerifier.verify(g1, 0, r).ok(), () -> SsspVerifier.verify(g1, 0, r).message());
        GraphEntry e2 = registry().acceptChunk(c2.get(7), 0).installed().orElseThrow();
        assertEquals(2, e2.version());
        assertSame(e2, current("g"));
        assertSameGraph(GraphBuilder.build(v2), e2.resident().graph(), "version 2 (seed " + (SEED + 1) + ")");
        assertSameGraph(g1, e1.resident().graph(), "version 1 as held by a query in flight");
    }

    @Test
    void snapshotNotNewerThanTheCurrentVersionIsStale() {
        services.install(List.of(chunk("g", 5, 0, 1, 3, 1, false, 0, 0, 1, 1)), 0);
        GraphEntry e5 = current("g");
        RejectedException same = assertRejected(ErrorCode.STALE_VERSION,
                () -> registry().acceptChunk(chunk("g", 5, 0, 1, 3, 1, false, 0, 1, 2, 1), 0));
        assertTrue(same.getMessage().contains("current version 5"), same.getMessage());
        assertRejected(ErrorCode.STALE_VERSION, () -> registry().acceptChunk(chunk("g", 3, 0, 1, 3, 1, false, 0, 1, 2, 1), 0));
        assertSame(e5, current("g"));
        assertEquals(0, registry().pendingSnapshotBytes());
    }

    @ParameterizedTest
    @ValueSource(doubles = {-1, -0.001, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void negativeOrNonFiniteWeightIsInvalidWeight(double w) {
        assertRejected(ErrorCode.INVALID_WEIGHT, () -> registry().acceptChunk(chunk("w", 1, 0, 1, 3, 2, true, 0, 0, 1, 1, 1, 2, w), 0));
        assertTrue(registry().get("w").isEmpty());
        services.install(List.of(chunk("w", 2, 0, 1, 3, 1, true, 0, 0, 1, 1)), 0);
        GraphEntry e2 = current("w");
        assertRejected(ErrorCode.INVALID_WEIGHT, () -> registry().acceptChunk(chunk("w", 3, 0, 1, 3, 1, true, 0, 1, 2, w), 0));
        assertSame(e2, current("w"), "the current version survives a rejected newer one");
    }

    @Test
    void olderVersionAbandonedByARejectedNewerOneIsStillReported() {
        registry().acceptChunk(chunk("g", 1, 0, 2, 3, 2, true, 0, 0, 1, 1), 0);
        RejectedException e = assertRejected(ErrorCode.INVALID_WEIGHT,
                () -> registry().acceptChunk(chunk("g", 2, 0, 1, 3, 1, true, 0, 0, 1, -5), 0));
        assertEquals(1, e.getSuppressed().length);
        assertEquals(ErrorCode.INCOMPLETE_SNAPSHOT, ((RejectedException) e.getSuppressed()[0]).code());
        assertEquals(0, registry().pendingSnapshotBytes());
    }

    /** An update of a seeded random graph: some edges removed, some re-weighted, some added (one existing, lighter). */
    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {false, true})
    void updateProducesTheNextVersionWithTheExpectedGraph(boolean directed) {
        final int first = 1;
        EdgeList base = UniformRandomGraph.generate(300, 1_500, SEED, 30, directed);
        services.install(snapshot("u", 1, base, first, 700), 2);
        CsrGraph g = GraphBuilder.build(base);
        GraphEntry e1 = current("u");

        // the canonical edges of version 1 (u < v when undirected)
        List<int[]> edges = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) {
                int v = g.columns()[a];
                if (directed || u < v) {
                    edges.add(new int[] {u, v});
                    weights.add(g.weights()[a]);
                }
            }
        }
        Random rnd = new Random(SEED);
        Set<Integer> picked = new HashSet<>();
        while (picked.size() < 8) picked.add(rnd.nextInt(edges.size()));
        List<Integer> order = new ArrayList<>(picked);
        List<Integer> removed = order.subList(0, 3), reweighted = order.subList(3, 6);
        int lighter = order.get(6), heavier = order.get(7);
        double[] newWeights = {0.5, 7, 1000};
        List<double[]> fresh = new ArrayList<>();
        while (fresh.size() < 4) {
            int u = rnd.nextInt(300), v = rnd.nextInt(300);
            boolean seen = fresh.stream().anyMatch(f -> (f[0] == u && f[1] == v) || (!directed && f[0] == v && f[1] == u));
            if (u != v && g.findArc(u, v) < 0 && !seen) {
                fresh.add(new double[] {u, v, 2.5 + fresh.size()});
            }
        }

        // the expected version 2, built independently of GraphEdit: edit the edge list, let GraphBuilder merge
        EdgeList expectedList = new EdgeList(300, directed);
        for (int i = 0; i < edges.size(); i++) {
            if (removed.contains(i)) continue;
            int k = reweighted.indexOf(i);
            expectedList.add(edges.get(i)[0], edges.get(i)[1], k >= 0 ? newWeights[k] : weights.get(i));
        }
        for (double[] f : fresh) expectedList.add((int) f[0], (int) f[1], f[2]);
        expectedList.add(edges.get(lighter)[0], edges.get(lighter)[1], weights.get(lighter) / 4);  // smaller weight wins
        expectedList.add(edges.get(heavier)[0], edges.get(heavier)[1], weights.get(heavier) + 10);  // ignored
        CsrGraph expected = GraphBuilder.build(expectedList);

        // the same change as a GraphUpdate in user ids; undirected removals name the edge backwards
        List<Integer> ru = new ArrayList<>();
        for (int i : removed) {
            int[] e = edges.get(i);
            ru.add((directed ? e[0] : e[1]) + first);
            ru.add((directed ? e[1] : e[0]) + first);
        }
        double[] rw = new double[9];
        for (int k = 0; k < 3; k++) {
            int[] e = edges.get(reweighted.get(k));
            rw[3 * k] = e[0] + first;
            rw[3 * k + 1] = e[1] + first;
            rw[3 * k + 2] = newWeights[k];
        }
        List<Double> add = new ArrayList<>();
        for (double[] f : fresh) add.addAll(List.of(f[0] + first, f[1] + first, f[2]));
        add.addAll(List.of((double) edges.get(lighter)[0] + first, (double) edges.get(lighter)[1] + first, weights.get(lighter) / 4));
        add.addAll(List.of((double) edges.get(heavier)[0] + first, (double) edges.get(heavier)[1] + first, weights.get(heavier) + 10));
        GraphUpdate update = GraphUpdate.newBuilder().setGraphId("u").setUpdateId("update-1").setBaseVersion(1L)
                .setRemoved(pairs(ru.stream().mapToInt(Integer::intValue).toArray()))
                .setReweighted(weighted(rw))
                .setAdded(weighted(add.stream().mapToDouble(Double::doubleValue).toArray()))
                .build();

        GraphEntry e2 = registry().applyUpdate(update, 2);
        String context = "seed " + SEED + ", directed " + directed;
        assertEquals(2, e2.version());
        assertEquals(first, e2.firstVertexId());
        assertSame(e2, current("u"));
        assertSameGraph(expected, e2.resident().graph(), context);
        assertEquals(g.edgeCount() - 3 + 4, e2.edgeCount(), context);
        assertSame(e1.resident(), e2.resident(), "the resident graph is changed in place, not reloaded");
        assertEquals(1, e1.version(), "the old entry keeps its number");

        for (int source : new int[] {0, 17, 299}) {
            SsspResult r = Sssp.run(e2.resident(), source, null);
            assertArrayEquals(DijkstraReference.run(expected, source).distances(), r.distances(), context + ", source " + source);
            QueryAnswer a = services.queries().answer(Fixtures.query("q" + source, "u", Algorithm.SSSP, source + first).build());
            assertEquals(ResultStatus.OK, a.status(), a.error());
            assertEquals(2, a.chunks().get(0).getGraphVersion());
            SsspResult viaChunks = Answers.decode(SsspResult.class, a.chunks());
            assertTrue(SsspVerifier.verify(expected, source, viaChunks).ok(),
                    () -> context + ": " + SsspVerifier.verify(expected, source, viaChunks).message());
        }
    }

    @Test
    void reweightOnlyUpdateKeepsTheStructureAndChangesBothArcs() {
        services.install(List.of(chunk("r", 1, 0, 1, 4, 3, false, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1)), 0);
        CsrGraph before = current("r").resident().graph();
        GraphEntry e2 = registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("r")
                .setReweighted(weighted(3, 2, 9.5)).build(), 0);
        CsrGraph after = e2.resident().graph();
        assertEquals(2, e2.version());
        assertTrue(after.sameStructure(before), "a re-weight shares the structure arrays");
        assertEquals(9.5, after.weights()[after.findArc(1, 2)]);
        assertEquals(9.5, after.weights()[after.findArc(2, 1)]);
        assertSame(before, after, "re-weighted in place: no copy of the graph");
        assertFalse(after.integralWeights());
        BfsResult unchanged = Bfs.run(e2.resident(), 0, null);
        assertArrayEquals(new int[] {0, 1, 2, 3}, unchanged.hops());
        assertEquals(1 + 9.5 + 1, Mst.run(e2.resident(), null).totalWeight());
    }

    @Test
    void updateWithTheWrongBaseVersionIsStaleAndKeepsTheVersion() {
        services.install(List.of(chunk("b", 1, 0, 1, 3, 1, true, 0, 0, 1, 1)), 0);
        GraphEntry e1 = current("b");
        RejectedException e = assertRejected(ErrorCode.STALE_VERSION, () -> registry().applyUpdate(GraphUpdate.newBuilder()
                .setGraphId("b").setUpdateId("late").setBaseVersion(7L).setAdded(weighted(1, 2, 1)).build(), 0));
        assertTrue(e.getMessage().contains("'late'") && e.getMessage().contains("base version 7"), e.getMessage());
        assertSame(e1, current("b"));
        GraphEntry e2 = registry().applyUpdate(GraphUpdate.newBuilder()
                .setGraphId("b").setBaseVersion(1L).setAdded(weighted(1, 2, 1)).build(), 0);
        assertEquals(2, e2.version());
        assertEquals(2, e2.edgeCount());
    }

    @Test
    void invalidUpdatesAreRejectedAndKeepTheVersion() {
        services.install(List.of(chunk("x", 1, 0, 1, 3, 2, true, 1, 1, 2, 1, 2, 3, 1)), 0);
        GraphEntry e1 = current("x");
        RejectedException missing = assertRejected(ErrorCode.INVALID_UPDATE,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x").setRemoved(pairs(3, 1)).build(), 0));
        assertTrue(missing.getMessage().contains("version 1 kept"), missing.getMessage());
        // directed: (2, 1) is not the edge (1, 2)
        assertRejected(ErrorCode.INVALID_UPDATE,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x").setReweighted(weighted(2, 1, 4)).build(), 0));
        assertRejected(ErrorCode.INVALID_VERTEX,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x").setAdded(weighted(0, 1, 1)).build(), 0));
        assertRejected(ErrorCode.INVALID_VERTEX,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x").setAdded(weighted(3, 4, 1)).build(), 0));
        assertRejected(ErrorCode.INVALID_WEIGHT,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x").setAdded(weighted(3, 1, -2)).build(), 0));
        assertRejected(ErrorCode.INVALID_WEIGHT,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x").setReweighted(weighted(1, 2, Double.NaN)).build(), 0));
        assertRejected(ErrorCode.INVALID_UPDATE, () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("x")
                .setRemoved(PackedArrays.edgeBatch(new int[] {1, 2}, new int[] {2}, new double[0])).build(), 0));
        // packed arrays that are not whole elements: 9 bytes of weights, 5 bytes of targets
        RejectedException oddWeights = assertRejected(ErrorCode.INVALID_UPDATE, () -> registry().applyUpdate(GraphUpdate.newBuilder()
                .setGraphId("x").setAdded(org.frontiergraph.schema.EdgeBatch.newBuilder(weighted(1, 3, 1))
                        .setWeights(ByteBuffer.allocate(9)).build()).build(), 0));
        assertTrue(oddWeights.getMessage().contains("'added'") && oddWeights.getMessage().contains("9 bytes")
                && oddWeights.getMessage().contains("multiple of 8"), oddWeights.getMessage());
        RejectedException oddTargets = assertRejected(ErrorCode.INVALID_UPDATE, () -> registry().applyUpdate(GraphUpdate.newBuilder()
                .setGraphId("x").setRemoved(org.frontiergraph.schema.EdgeBatch.newBuilder(pairs(1, 2))
                        .setTargets(ByteBuffer.allocate(5)).build()).build(), 0));
        assertTrue(oddTargets.getMessage().contains("'removed'") && oddTargets.getMessage().contains("multiple of 4"),
                oddTargets.getMessage());
        assertRejected(ErrorCode.UNKNOWN_GRAPH,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("nope").setAdded(weighted(1, 2, 1)).build(), 0));
        assertSame(e1, current("x"));
        assertEquals(2, e1.edgeCount());
    }

    @Test
    void dropPartitionsFreesOnlyThoseGraphs() {
        services.close();
        TrackingEngines engines = new TrackingEngines(Fixtures.cpuConfig());
        services = Fixtures.start(Fixtures.cpuConfig(), engines);
        services.install(snapshot("a", 1, UniformRandomGraph.generate(100, 400, SEED, 9, false), 0, 1_000), 0);
        services.install(snapshot("b", 1, UniformRandomGraph.generate(200, 800, SEED, 9, false), 0, 1_000), 1);
        services.install(snapshot("c", 1, UniformRandomGraph.generate(300, 900, SEED, 9, true), 0, 1_000), 1);
        services.install(snapshot("d", 1, UniformRandomGraph.generate(400, 999, SEED, 9, true), 0, 1_000), 2);
        registry().acceptChunk(chunk("e", 1, 0, 2, 3, 2, true, 0, 0, 1, 1), 1);  // pending, no version yet
        registry().acceptChunk(chunk("f", 1, 0, 2, 3, 2, true, 0, 0, 1, 1), 2);  // pending in a kept partition
        long keptBytes = current("a").resident().residentBytes() + current("d").resident().residentBytes();
        ResidentGraph a = current("a").resident(), b = current("b").resident(),
                c = current("c").resident(), d = current("d").resident();

        List<GraphEntry> dropped = registry().dropPartitions(List.of(1));

        assertEquals(Set.of("b", "c"), Set.of(dropped.get(0).graphId(), dropped.get(1).graphId()));
        assertTrue(registry().get("b").isEmpty() && registry().get("c").isEmpty());
        assertTrue(registry().get("a").isPresent() && registry().get("d").isPresent());
        assertTrue(engines.closed(b) && engines.closed(c), "dropped graphs are freed");
        assertFalse(engines.closed(a) || engines.closed(d), "graphs of other partitions stay resident");
        assertEquals(keptBytes, registry().residentBytes("cpu"));
        assertEquals(2, registry().size());
        assertEquals(2.0, services.meters().get("frontier.graphs.resident").gauge().value());
        assertTrue(registry().whyUnknown("e").contains("no snapshot"), "pending chunks of a dropped partition are forgotten");
        assertTrue(registry().whyUnknown("f").contains("1 of 2 chunks"), registry().whyUnknown("f"));
        assertEquals(SnapshotAssembler.VERSION_OVERHEAD_BYTES + CsrAssembly.countsBytes(3) + SnapshotAssembler.chunkBytes(1, 0),
                registry().pendingSnapshotBytes());
    }

    @Test
    void aVersionThatCannotFitTheHeapBudgetIsRefusedBeforeAnythingIsAllocated() {
        services.close();
        FrontierConfig config = Fixtures.cpuConfig();
        EngineService engines = new EngineService(config);
        GraphRegistry registry = new GraphRegistry(engines, config, new HeapBudget(2_000_000, "the test's budget"));
        try {
            // issue 12's second bomb: 199,999,999 vertices and one edge would take 800 MB (the counts) to build
            RejectedException bomb = assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                    () -> registry.acceptChunk(chunk("bomb", 1, 0, 1, 199_999_999, 1, true, 0, 0, 1, 1), 0));
            assertTrue(bomb.getMessage().contains("800.0 MB") && bomb.getMessage().contains("the test's budget"), bomb.getMessage());
            assertEquals(0, registry.pendingSnapshotBytes(), "nothing buffered for it");
            // a header that declares far more edges than it sends is refused by what it declares
            assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                    () -> registry.acceptChunk(chunk("liar", 1, 0, 2, 10, 100_000, true, 0, 0, 1, 1), 0));
            // graphs that fit are loaded until the budget is used up; then the next version is refused
            EdgeList e = UniformRandomGraph.generate(1_000, 4_000, SEED, 9, true);
            long need = HeapBudget.buildBytes(1_000, 4_000, true);
            int loaded = 0;
            RejectedException full = null;
            for (int i = 0; i < 100 && full == null; i++) {
                try {
                    for (GraphSnapshotChunk c : snapshot("g" + i, 1, e, 0, 1_000)) registry.acceptChunk(c, 0);
                    loaded++;
                } catch (RejectedException r) {
                    full = r;
                }
            }
            assertEquals(ErrorCode.GRAPH_TOO_LARGE, full.code());
            assertTrue(loaded >= 1 && registry.heldBytes() + need > 2_000_000, "refused only once it could not fit: " + loaded);
            assertEquals(loaded, registry.size());
            // a budget that holds one version: an update, which builds the next beside it, is refused, the version kept
            try (GraphRegistry tight = new GraphRegistry(engines, config, new HeapBudget(need, "a tight budget"))) {
                for (GraphSnapshotChunk c : snapshot("u", 1, e, 0, 1_000)) tight.acceptChunk(c, 1);
                assertRejected(ErrorCode.GRAPH_TOO_LARGE, () -> tight.applyUpdate(GraphUpdate.newBuilder().setGraphId("u")
                        .setAdded(weighted(1, 2, 1)).build(), 1));
                assertEquals(1, tight.get("u").orElseThrow().version());
            }
        } finally {
            registry.close();
            engines.close();
        }
    }

    /**
     * A version over the heap budget is refused at its first chunk, once: its other chunks change nothing and throw
     * nothing (counted), also after its partition's graphs are replayed; a newer version is admitted afresh.
     */
    @Test
    void aVersionOverTheBudgetIsRefusedOnceItsOtherChunksDroppedQuietly() {
        services.close();
        FrontierConfig config = Fixtures.cpuConfig();
        EngineService engines = new EngineService(config);
        EdgeList e = UniformRandomGraph.generate(1_000, 4_000, SEED, 9, true);
        try (GraphRegistry registry = new GraphRegistry(engines, config, new HeapBudget(HeapBudget.buildBytes(1_000, 4_000, true) - 1, "a tight budget"))) {
            List<GraphSnapshotChunk> chunks = snapshot("big", 5, e, 0, 500);
            RejectedException first = assertRejected(ErrorCode.GRAPH_TOO_LARGE, () -> registry.acceptChunk(chunks.get(0), 1));
            assertTrue(first.getMessage().contains("a tight budget"), first.getMessage());
            for (GraphSnapshotChunk c : chunks.subList(1, chunks.size())) {
                GraphRegistry.Change quiet = registry.acceptChunk(c, 1);
                assertTrue(quiet.installed().isEmpty() && quiet.abandoned().isEmpty());
            }
            assertEquals(chunks.size() - 1, registry.refusedChunks());
            assertEquals(0, registry.pendingSnapshotBytes(), "nothing buffered for the refused version");
            registry.dropPartitions(List.of(1));   // a replay of the partition refuses it once again
            assertRejected(ErrorCode.GRAPH_TOO_LARGE, () -> registry.acceptChunk(chunks.get(1), 1));
            assertTrue(registry.acceptChunk(chunks.get(2), 1).installed().isEmpty());
            EdgeList small = UniformRandomGraph.generate(1_000, 1_000, SEED, 9, true);
            GraphRegistry.Change loaded = null;
            for (GraphSnapshotChunk c : snapshot("big", 6, small, 0, 500)) loaded = registry.acceptChunk(c, 1);
            assertEquals(6, loaded.installed().orElseThrow().version(), "a newer version is admitted afresh");
        } finally {
            engines.close();
        }
    }

    /** The refusals remembered are bounded: refusals under many graph ids forget the oldest, whose chunks are refused again. */
    @Test
    void refusalsRememberedAreBounded() {
        services.close();
        FrontierConfig config = Fixtures.cpuConfig();
        config.setMaxEdges(1);
        services = Fixtures.start(config);
        for (int g = 0; g <= GraphRegistry.REFUSED_KEPT; g++) {
            String id = "g" + g;
            assertRejected(ErrorCode.GRAPH_TOO_LARGE, () -> registry().acceptChunk(chunk(id, 1, 0, 2, 3, 2, true, 0, 0, 1, 1), 0));
        }
        assertTrue(registry().acceptChunk(chunk("g" + GraphRegistry.REFUSED_KEPT, 1, 1, 2, 3, 2, true, 0, 1, 2, 1), 0).installed().isEmpty());
        assertEquals(1, registry().refusedChunks());
        assertRejected(ErrorCode.GRAPH_TOO_LARGE, () -> registry().acceptChunk(chunk("g0", 1, 1, 2, 3, 2, true, 0, 1, 2, 1), 0));
    }

    @Test
    void pendingVersionsExpireByTheirPartitionsTime() {
        registry().acceptChunk(chunk("half", 1, 0, 2, 3, 2, true, 0, 0, 1, 1), 0, 7, 1_000);
        registry().acceptChunk(chunk("elsewhere", 1, 0, 2, 3, 2, true, 0, 0, 1, 1), 1, 3, 1_000);
        assertEquals(7, registry().rebuildFrom(0, 100));
        long ttl = services.config().getPendingSnapshotTtl().toMillis();
        assertTrue(registry().expirePending(p -> p == 0, 1_000 + ttl).isEmpty(), "not older than the TTL yet");
        List<GraphRegistry.Expired> expired = registry().expirePending(p -> p == 0, 1_001 + ttl);
        assertEquals(1, expired.size());
        assertEquals("half", expired.get(0).graphId());
        assertEquals(7, expired.get(0).firstOffset());
        assertEquals(ErrorCode.INCOMPLETE_SNAPSHOT, expired.get(0).reason().code());
        assertTrue(expired.get(0).reason().getMessage().contains("frontier.pending-snapshot-ttl"), expired.get(0).reason().getMessage());
        assertEquals(100, registry().rebuildFrom(0, 100), "the rebuild no longer replays the expired version");
        assertTrue(registry().whyUnknown("elsewhere").contains("1 of 2 chunks"));
        // the missing chunk arriving late starts over: it does not complete a version that expired
        assertTrue(registry().acceptChunk(chunk("half", 1, 1, 2, 3, 2, true, 0, 1, 2, 1), 0, 9, 2_000 + ttl).installed().isEmpty());
    }

    @Test
    void limitsOnVerticesAndEdgesAreGraphTooLarge() {
        services.close();
        FrontierConfig config = Fixtures.cpuConfig();
        config.setMaxVertices(100);
        config.setMaxEdges(3);
        services = Fixtures.start(config);
        RejectedException v = assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                () -> registry().acceptChunk(chunk("big", 1, 0, 1, 101, 1, true, 0, 0, 1, 1), 0));
        assertTrue(v.getMessage().contains("frontier.max-vertices"), v.getMessage());
        assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                () -> registry().acceptChunk(chunk("big", 1, 0, 1, 100, 4, true, 0, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1), 0));
        assertTrue(registry().get("big").isEmpty());
        services.install(List.of(chunk("big", 1, 0, 1, 100, 3, true, 0, 0, 1, 1, 1, 2, 1, 2, 3, 1)), 0);
        GraphEntry e1 = current("big");
        // an update may not grow a graph past the limit either
        RejectedException u = assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                () -> registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("big").setAdded(weighted(5, 6, 1)).build(), 0));
        assertTrue(u.getMessage().contains("version 1 kept"), u.getMessage());
        assertSame(e1, current("big"));
        // replacing an edge keeps it within the limit
        assertEquals(2, registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("big")
                .setRemoved(pairs(0, 1)).setAdded(weighted(5, 6, 1)).build(), 0).version());
    }

    /** Holds CPU residents behind a wrapper that records whether the registry closed (freed) them. */
    static final class TrackingEngines extends EngineService {
        private final Map<ResidentGraph, Boolean> closed = new ConcurrentHashMap<>();

        TrackingEngines(FrontierConfig config) {
            super(config);
        }

        boolean closed(ResidentGraph r) {
            return closed.get(r);
        }

        @Override
        public ResidentGraph load(CsrGraph graph) {
            ResidentGraph inner = super.load(graph);
            ResidentGraph tracked = new ResidentGraph() {
                @Override public MutableGraph mutable() { return inner.mutable(); }
                @Override public String backend() { return inner.backend(); }
                @Override public long residentBytes() { return inner.residentBytes(); }
                @Override public <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant) {
                    return inner.run(algorithm, query, variant);
                }
                @Override public void close() {
                    closed.put(this, true);
                    inner.close();
                }
            };
            closed.put(tracked, false);
            return tracked;
        }
    }

    // ---------------------------------------------------------------------------------------- updateId: retries

    /** An update with an id adding vertex 4 (ids 1..) and re-weighting 1->2. */
    private static GraphUpdate retried(String graphId, String updateId) {
        return GraphUpdate.newBuilder().setGraphId(graphId).setUpdateId(updateId).setAddedVertexCount(1)
                .setReweighted(weighted(1, 2, 7)).setAdded(weighted(3, 4, 2)).build();
    }

    private static List<GraphSnapshotChunk> triangle(String graphId, long version) {
        return List.of(chunk(graphId, version, 0, 1, 3, 3, true, 1, 1, 2, 1, 2, 3, 1, 1, 3, 5));
    }

    private void install(List<GraphSnapshotChunk> chunks, long offset) {
        for (GraphSnapshotChunk c : chunks) registry().acceptChunk(c, 0, offset);
    }

    @Test
    void anUpdatePublishedTwiceIsAppliedOnceAndItsRetryRefusedAsADuplicate() {
        install(triangle("g", 1), 10);
        GraphEntry once = registry().applyUpdate(retried("g", "u-1"), 0);
        assertEquals(2, once.version());
        assertEquals(4, once.vertexCount());
        long edges = once.edgeCount();
        RejectedException e = assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(retried("g", "u-1"), 0));
        assertTrue(e.getMessage().contains("'u-1'") && e.getMessage().contains("as version 2"), e.getMessage());
        assertEquals(2, current("g").version(), "the graph unchanged");
        assertEquals(4, current("g").vertexCount(), "no phantom vertex");
        assertEquals(edges, current("g").edgeCount());
        assertEquals(1, registry().duplicateUpdates());
        // a retry that also names its old base version is still named a duplicate
        GraphUpdate withBase = GraphUpdate.newBuilder(retried("g", "u-1")).setBaseVersion(1L).build();
        assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(withBase, 0));
        // the same edits under another id, or none, are new updates
        assertEquals(3, registry().applyUpdate(retried("g", "u-2"), 0).version());
        assertEquals(4, registry().applyUpdate(retried("g", null), 0).version());
        assertEquals(5, registry().applyUpdate(retried("g", null), 0).version());
        assertEquals(7, current("g").vertexCount());
        // ids are per graph: the same id on another graph is another update
        install(triangle("h", 1), 20);
        assertEquals(2, registry().applyUpdate(retried("h", "u-1"), 0).version());
        // a replay refuses the same duplicates but does not count them
        assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(retried("h", "u-1"), 0, true));
        assertEquals(2, registry().duplicateUpdates());
    }

    @Test
    void aRejectedUpdateLeavesItsIdFreeForACorrectedRetry() {
        install(triangle("g", 1), 10);
        GraphUpdate bad = GraphUpdate.newBuilder().setGraphId("g").setUpdateId("fix-me").setRemoved(pairs(3, 1)).build();
        assertRejected(ErrorCode.INVALID_UPDATE, () -> registry().applyUpdate(bad, 0));
        GraphUpdate fixed = GraphUpdate.newBuilder().setGraphId("g").setUpdateId("fix-me").setRemoved(pairs(1, 3)).build();
        assertEquals(2, registry().applyUpdate(fixed, 0).version());
        assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(fixed, 0));
    }

    @Test
    void theWindowKeepsTheLastIdsOnly() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setUpdateDedupWindow(3);
        services.close();
        services = Fixtures.start(config);
        install(triangle("g", 1), 10);
        for (int i = 1; i <= 4; i++) registry().applyUpdate(reweight("g", "w-" + i, i), 0);
        assertEquals(3, registry().dedupWindowIds());
        assertEquals(6, registry().applyUpdate(reweight("g", "w-1", 9), 0).version(), "w-1 left the window: applied");
        for (String id : new String[] {"w-3", "w-4", "w-1"}) {
            assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(reweight("g", id, 9), 0));
        }
        assertEquals(6, current("g").version());
        // 0: no deduplication at all
        config.setUpdateDedupWindow(0);
        services.close();
        services = Fixtures.start(config);
        install(triangle("g", 1), 10);
        registry().applyUpdate(reweight("g", "same", 2), 0);
        assertEquals(3, registry().applyUpdate(reweight("g", "same", 2), 0).version());
        assertEquals(0, registry().dedupWindowIds());
    }

    private static GraphUpdate reweight(String graphId, String updateId, double w) {
        return GraphUpdate.newBuilder().setGraphId(graphId).setUpdateId(updateId).setReweighted(weighted(1, 2, w)).build();
    }

    @Test
    void theWindowCarriesOverANewSnapshotAndHoldsTheRebuildWhereItsIdsWereApplied() {
        install(triangle("g", 1), 10);
        assertEquals(10, registry().rebuildFrom(0, 99));
        registry().applyUpdate(reweight("g", "a", 2), 0);      // version 2, on the snapshot at offset 10
        install(triangle("g", 5), 40);
        assertEquals(5, current("g").version());
        assertEquals(10, registry().rebuildFrom(0, 99), "a rebuild must replay the updates the window holds");
        assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(reweight("g", "a", 2), 0));
        assertEquals(5, current("g").version());
        registry().applyUpdate(reweight("g", "b", 3), 0);      // version 6, on the snapshot at offset 40
        install(triangle("g", 9), 70);
        // 'a' was refused on the snapshot at 40, so it is recorded there too: still a duplicate two snapshots on,
        // and the rebuild still starts where it was applied (a replay from 40 would apply its retry)
        assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(reweight("g", "a", 2), 0));
        assertRejected(ErrorCode.DUPLICATE_UPDATE, () -> registry().applyUpdate(reweight("g", "b", 2), 0));
        assertEquals(10, registry().rebuildFrom(0, 99));
        install(triangle("g", 12), 100);
        assertEquals(10, registry().rebuildFrom(0, 99), "the retries recorded on the snapshot at 70 carry over");
        install(triangle("g", 15), 130);
        assertEquals(130, registry().rebuildFrom(0, 99), "nothing recorded since 70: the newest snapshot is the start");
        assertEquals(0, registry().dedupWindowIds());
        assertEquals(16, registry().applyUpdate(reweight("g", "a", 2), 0).version(), "after two snapshots without it, 'a' is new");
        assertEquals(130, registry().rebuildFrom(0, 99));
        registry().dropPartitions(List.of(0));
        assertEquals(0, registry().dedupWindowIds(), "a revoked partition's windows go with its graphs");
    }
}
