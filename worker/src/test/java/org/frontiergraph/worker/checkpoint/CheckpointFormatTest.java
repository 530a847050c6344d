package org.frontiergraph.worker.checkpoint;

import static org.frontiergraph.worker.support.Fixtures.assertSameGraph;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.NamedEdgeBatch;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.WindowEntry;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * A graph written as checkpoint records and read back is the same graph, array for array (rows, targets, weights,
 * edge ids), with the same deduplication window, on random graphs, directed and undirected, fresh and after random
 * updates (vertices added, edges removed, re-weighted and added); and the catalog takes a slot only when all its
 * chunks are of one checkpoint taken before the committed offset.
 */
class CheckpointFormatTest {
    static final String G = "g";

    /** The records as a compacted partition would hold them, in the order they were written. */
    private static CheckpointCatalog catalog(List<CheckpointFormat.Out> records) {
        CheckpointCatalog c = new CheckpointCatalog(0, true);
        for (int i = 0; i < records.size(); i++) c.add(records.get(i).key(), records.get(i).value(), records.get(i).headers(), i);
        return c;
    }

    private static List<CheckpointFormat.Out> write(GraphEntry e, List<WindowEntry> window, int slot, long offset, int perChunk) {
        List<CheckpointFormat.Out> out = new ArrayList<>();
        CheckpointFormat.encode(new CheckpointFormat.Taken(G, 0, slot, offset, e.version(), e.snapshotOffset(), e.firstVertexId(),
                e.resident().mutable().snapshot(), window, e.names() == null ? null : e.names().snapshot()), perChunk, out::add);
        return out;
    }

    private static CheckpointCatalog.Found found(CheckpointCatalog c, long committed) {
        List<String> unusable = new ArrayList<>();
        return c.usable(committed, unusable).get(G);
    }

    @ParameterizedTest(name = "seed {0}, directed {1}, chunks of {2} edges")
    @CsvSource({"1, false, 7", "2, true, 7", "3, false, 1000", "4, true, 1", "5, false, 64"})
    void aGraphAfterRandomUpdatesComesBackTheSame(long seed, boolean directed, int perChunk) throws Exception {
        Random random = new Random(seed);
        try (Fixtures.Services live = Fixtures.start(Fixtures.cpuConfig()); Fixtures.Services back = Fixtures.start(Fixtures.cpuConfig())) {
            int n = 60 + random.nextInt(60);
            EdgeList edges = UniformRandomGraph.generate(n, 4L * n, seed, 20, directed);
            live.install(Fixtures.snapshot(G, 7, edges, 1, 50), 0);
            for (int step = 0; step < 3; step++) {
                GraphEntry e = live.registry().get(G).orElseThrow();
                check(live, back, e, perChunk, "seed " + seed + " after " + step * 40 + " updates");
                for (int u = 0; u < 40; u++) applyRandom(live, random, "u" + step + "-" + u);
            }
            // both sides go on alike: a retry of an update in the window is refused on both, a new one applied on both
            GraphEntry e = live.registry().get(G).orElseThrow();
            check(live, back, e, perChunk, "seed " + seed + " at the end");
            GraphUpdate retry = reweightFirstArc(live.registry().get(G).orElseThrow().resident().graph(), "u1-3", 0.5);
            assertThrows(RejectedException.class, () -> live.registry().applyUpdate(retry, 0));
            assertThrows(RejectedException.class, () -> back.registry().applyUpdate(retry, 0));
            GraphUpdate next = reweightFirstArc(live.registry().get(G).orElseThrow().resident().graph(), "after", 0.5);
            live.registry().applyUpdate(next, 0);
            back.registry().applyUpdate(next, 0);
            assertSameGraph(live.registry().get(G).orElseThrow().resident().graph(), back.registry().get(G).orElseThrow().resident().graph(),
                    "seed " + seed + ": the same update applied to the original and the restored graph");
        }
    }

    /**
     * A named graph after updates that add named vertices and edges by name comes back with every name in place (the
     * names in chunks of their own, several when they are long), and an update by name, a new name included, gives
     * the same graph on both sides.
     */
    @ParameterizedTest(name = "seed {0}, chunks of {1} edges")
    @CsvSource({"11, 7", "12, 1000", "13, 1"})
    void aNamedGraphComesBackWithItsNames(long seed, int perChunk) throws Exception {
        Random random = new Random(seed);
        try (Fixtures.Services live = Fixtures.start(Fixtures.cpuConfig()); Fixtures.Services back = Fixtures.start(Fixtures.cpuConfig())) {
            int n = 40 + random.nextInt(40);
            EdgeList edges = UniformRandomGraph.generate(n, 3L * n, seed, 20, false);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < n; i++) names.add("junction-" + Integer.toString(i * 7919 + 13, 36) + "-" + "x".repeat(random.nextInt(40)));
            live.install(Fixtures.named(Fixtures.snapshot(G, 7, edges, 1, 50), names), 0);
            for (int step = 0; step < 3; step++) {
                check(live, back, live.registry().get(G).orElseThrow(), perChunk, "seed " + seed + " after " + step + " named updates");
                String fresh = "new-" + step;
                live.registry().applyUpdate(GraphUpdate.newBuilder().setGraphId(G).setUpdateId("n" + step)
                        .setAddedVertexNames(List.of(fresh))
                        .setAddedByName(new NamedEdgeBatch(List.of(fresh, names.get(step)), List.of(names.get(step + 1), fresh),
                                PackedArrays.pack(new double[] {2.5, 4})))
                        .build(), 0);
            }
            GraphEntry e = live.registry().get(G).orElseThrow();
            check(live, back, e, perChunk, "seed " + seed + " at the end");
            GraphUpdate next = GraphUpdate.newBuilder().setGraphId(G).setUpdateId("after").setAddedVertexNames(List.of("last"))
                    .setAddedByName(new NamedEdgeBatch(List.of("new-0"), List.of("last"), PackedArrays.pack(new double[] {1})))
                    .build();
            live.registry().applyUpdate(next, 0);
            back.registry().applyUpdate(GraphUpdate.newBuilder(next).build(), 0);
            assertSameGraph(live.registry().get(G).orElseThrow().resident().graph(), back.registry().get(G).orElseThrow().resident().graph(),
                    "seed " + seed + ": the same update by name applied to the original and the restored graph");
            assertEquals(n + 4, back.registry().get(G).orElseThrow().names().size());
            assertEquals(n + 3, back.registry().get(G).orElseThrow().names().position("last"));
        }
    }

    /** Writes {@code e} as a checkpoint, reads it back into {@code back}'s registry and compares the two. */
    private static void check(Fixtures.Services live, Fixtures.Services back, GraphEntry e, int perChunk, String what) throws Exception {
        List<WindowEntry> window = live.registry().window(G);
        long offset = 1_000 + e.version();
        CheckpointCatalog.Found f = found(catalog(write(e, window, 1, offset, perChunk)), offset + 1);
        Checkpoint c = f.decode();
        assertEquals(offset, c.offset(), what);
        assertEquals(e.version(), c.version(), what);
        assertEquals(e.snapshotOffset(), c.lineage(), what);
        assertEquals(window, c.window(), what + ": the window");
        back.registry().dropPartitions(List.of(0));
        GraphEntry restored = back.registry().restore(G, c.version(), 0, c.firstVertexId(), c.graph(), c.names(), c.lineage(),
                c.validThrough(), c.window());
        assertEquals(e.names() == null ? null : List.of(e.names().snapshot()),
                restored.names() == null ? null : List.of(restored.names().snapshot()), what + ": the vertex names");
        CsrGraph expected = e.resident().graph();
        assertSameGraph(expected, restored.resident().graph(), what);
        assertEquals(window, back.registry().window(G), what + ": the restored window");
        assertEquals(e.version(), restored.version(), what);
    }

    /** One random update of the graph's current version: a vertex added, edges removed, re-weighted and added. */
    private static void applyRandom(Fixtures.Services s, Random random, String id) {
        CsrGraph g = s.registry().get(G).orElseThrow().resident().graph();
        int n = g.vertexCount();
        List<int[]> existing = new ArrayList<>();
        for (int u = 0; u < n; u++) {
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) if (g.directed() || u < g.columns()[a]) existing.add(new int[] {u, g.columns()[a]});
        }
        Map<Long, Boolean> used = new HashMap<>();
        List<int[]> removed = new ArrayList<>(), reweighted = new ArrayList<>();
        for (int i = 0; i < 3 && !existing.isEmpty(); i++) {
            int[] edge = existing.get(random.nextInt(existing.size()));
            if (used.putIfAbsent(((long) edge[0] << 32) | edge[1], true) != null) continue;
            (i == 0 ? removed : reweighted).add(edge);
        }
        int[] au = {random.nextInt(n + 1), random.nextInt(n)}, av = {n, random.nextInt(n + 1)};
        GraphUpdate u = GraphUpdate.newBuilder().setGraphId(G).setUpdateId(id).setAddedVertexCount(1)
                .setRemoved(PackedArrays.edgeBatch(ids(removed, 0), ids(removed, 1), new double[0]))
                .setReweighted(PackedArrays.edgeBatch(ids(reweighted, 0), ids(reweighted, 1),
                        reweighted.stream().mapToDouble(x -> 1 + random.nextInt(30)).toArray()))
                .setAdded(PackedArrays.edgeBatch(shift(au), shift(av), new double[] {1 + random.nextInt(9), 0.5 + random.nextInt(9)}))
                .build();
        s.registry().applyUpdate(u, 0);
    }

    private static int[] ids(List<int[]> edges, int which) {
        return edges.stream().mapToInt(e -> e[which] + 1).toArray();
    }

    private static int[] shift(int[] zeroBased) {
        int[] out = zeroBased.clone();
        for (int i = 0; i < out.length; i++) out[i] += 1;
        return out;
    }

    private static GraphUpdate reweightFirstArc(CsrGraph g, String id, double w) {
        int u = 0;
        while (g.degree(u) == 0) u++;
        return GraphUpdate.newBuilder().setGraphId(G).setUpdateId(id)
                .setReweighted(PackedArrays.edgeBatch(new int[] {u + 1}, new int[] {g.columns()[g.rowStart(u)] + 1}, new double[] {w})).build();
    }

    @Test
    void staleChunksOfALongerCheckpointAreNotTakenForANewerOne() throws Exception {
        try (Fixtures.Services live = Fixtures.start(Fixtures.cpuConfig())) {
            live.install(Fixtures.snapshot(G, 1, UniformRandomGraph.generate(40, 200, 9, 5, false), 1, 50), 0);
            GraphEntry v1 = live.registry().get(G).orElseThrow();
            List<CheckpointFormat.Out> records = new ArrayList<>(write(v1, List.of(), 0, 10, 20));   // ~10 chunks in slot 0
            int older = records.size();
            assertTrue(older > 5, "the older checkpoint has more chunks than the newer");
            live.registry().applyUpdate(reweightFirstArc(v1.resident().graph(), "x", 3), 0);
            GraphEntry v2 = live.registry().get(G).orElseThrow();
            List<CheckpointFormat.Out> newer = write(v2, List.of(), 0, 20, 50);   // 4 chunks, same slot, no tombstones
            assertEquals(4, newer.size());
            records.addAll(newer.subList(0, 3));   // a writer died before its last chunk
            assertNull(found(catalog(records), 100), "chunks 0-2 of the new one and 3.. of the old one are no checkpoint");
            records.add(newer.get(3));
            CheckpointCatalog.Found f = found(catalog(records), 100);
            assertEquals(2, f.meta().version(), "complete now: the old chunks beyond its count are ignored");
            assertEquals(4, f.values().size());
            assertEquals(older, f.slotSizes()[0], "the slot still holds the old keys beyond (tombstoned by the next write)");
        }
    }

    @Test
    void aCheckpointTakenPastTheCommitIsNotUsedAndMarkersExtendValidityUpToIt() throws Exception {
        try (Fixtures.Services live = Fixtures.start(Fixtures.cpuConfig())) {
            live.install(Fixtures.snapshot(G, 1, UniformRandomGraph.generate(30, 90, 4, 5, true), 1, 50), 0);
            GraphEntry e = live.registry().get(G).orElseThrow();
            List<CheckpointFormat.Out> records = new ArrayList<>(write(e, List.of(), 0, 10, 1000));
            records.addAll(write(e, List.of(), 1, 30, 1000));
            assertEquals(1, found(catalog(records), 31).meta().slot(), "the newer one, taken before the commit");
            assertEquals(0, found(catalog(records), 30).meta().slot(), "offset 30 was not committed: the older slot");
            CheckpointFormat.Meta m0 = found(catalog(records), 30).meta();
            records.add(CheckpointFormat.marker(G, m0, 25));
            assertEquals(25, found(catalog(records), 30).validThrough(), "the marker: unchanged through 25");
            assertEquals(19, found(catalog(records), 20).validThrough(), "but never past the commit");
            List<String> unusable = new ArrayList<>();
            assertTrue(catalog(records).usable(10, unusable).isEmpty());
            assertEquals(List.of(G), unusable);
        }
    }

    @Test
    void keysNameTheirGraphWhateverItHolds() {
        assertEquals("a/0/1", CheckpointFormat.graphOf(CheckpointFormat.key("a/0/1", 1, 2)));
        assertEquals("a", CheckpointFormat.graphOf(CheckpointFormat.validKey("a", 0)));
        assertNull(CheckpointFormat.graphOf("loose"));
    }
}
