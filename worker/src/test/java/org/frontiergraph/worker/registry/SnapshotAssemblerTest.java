package org.frontiergraph.worker.registry;

import static org.frontiergraph.worker.support.Fixtures.assertRejected;
import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.registry.SnapshotAssembler.Assembled;
import org.frontiergraph.worker.registry.SnapshotAssembler.Outcome;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Snapshot chunks become one complete version, or a named rejection; nothing half-assembled leaks out. */
class SnapshotAssemblerTest {
    private static final long SEED = 0x5eed_0001L;
    private static final int PARTITION = 3;

    private final SnapshotAssembler assembler = new SnapshotAssembler(Long.MAX_VALUE);

    /** A three-chunk version of a 6-vertex graph with ids 1..6, two edges per chunk. */
    private static List<GraphSnapshotChunk> threeChunks(String graphId, long version) {
        List<GraphSnapshotChunk> c = new ArrayList<>();
        c.add(chunk(graphId, version, 0, 3, 6, 6, false, 1, 1, 2, 1, 2, 3, 2));
        c.add(chunk(graphId, version, 1, 3, 6, 6, false, 1, 3, 4, 3, 4, 5, 4));
        c.add(chunk(graphId, version, 2, 3, 6, 6, false, 1, 5, 6, 5, 6, 1, 6));
        return c;
    }

    private Outcome accept(GraphSnapshotChunk c) {
        return assembler.accept(c, PARTITION);
    }

    /**
     * What {@code versions} pending versions of {@code vertices} vertices cost holding chunks of these edge counts with
     * {@code weightBytes} bytes of weights an edge (0: every weight 1; 4: integers).
     */
    private static long held(int versions, int vertices, int weightBytes, long... chunkEdges) {
        long bytes = versions * (SnapshotAssembler.VERSION_OVERHEAD_BYTES + CsrAssembly.countsBytes(vertices));
        for (long m : chunkEdges) bytes += SnapshotAssembler.chunkBytes(m, weightBytes);
        return bytes;
    }

    /** The graph an assembled version builds, which must be GraphBuilder's graph of {@code edges}. */
    private static CsrGraph assertBuildsAs(EdgeList edges, Assembled a) {
        CsrGraph expected = GraphBuilder.build(edges), g = a.graph().build();
        assertArrayEquals(expected.rowOffsets(), g.rowOffsets());
        assertArrayEquals(expected.columns(), g.columns());
        assertArrayEquals(expected.weights(), g.weights());
        assertArrayEquals(expected.arcEdgeIds(), g.arcEdgeIds());
        assertEquals(expected.integralWeights(), g.integralWeights());
        return g;
    }

    private static EdgeList edges(int n, boolean directed, double... triples) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < triples.length; i += 3) e.add((int) triples[i], (int) triples[i + 1], triples[i + 2]);
        return e;
    }

    /**
     * Chunks decoded on four ingest threads, arriving shuffled and some twice (a redelivery, ignored), of a graph with
     * parallel edges (equal and different weights), self-loops and isolated vertices: GraphBuilder's graph, the
     * buffer exact while chunks wait, and released at the end.
     */
    /**
     * With {@code frontier.wide-arcs-from} set low, a version is built in the wide form (64-bit offsets, its arcs in
     * pages): GraphBuilder's graph widened, arc by arc, from chunks decoded side by side, shuffled and redelivered;
     * below the setting, and by default, narrow as before.
     */
    @ParameterizedTest(name = "directed {0}")
    @ValueSource(booleans = {false, true})
    void aVersionOfAtLeastWideArcsFromArcsIsBuiltWide(boolean directed) {
        EdgeList edges = UniformRandomGraph.generate(400, 3_000, SEED, 50, directed);
        for (int i = 0; i < 300; i += 3) edges.add(edges.source(i), edges.target(i), i % 2);   // parallel edges
        List<GraphSnapshotChunk> chunks = Fixtures.snapshot("w", 4, edges, 0, 211);
        List<GraphSnapshotChunk> arriving = new ArrayList<>(chunks);
        arriving.addAll(chunks.subList(0, 3));   // redelivered
        Collections.shuffle(arriving, new Random(SEED));
        CsrGraph expected = GraphBuilder.build(edges);
        try (ChunkDecoders decoders = new ChunkDecoders(3)) {
            for (long from : new long[] {1, expected.arcs(), expected.arcs() + 1, 0}) {
                SnapshotAssembler wide = new SnapshotAssembler(Long.MAX_VALUE, decoders, from);
                Optional<Assembled> done = Optional.empty();
                for (GraphSnapshotChunk c : arriving) if (done.isEmpty()) done = wide.accept(c, PARTITION).complete();
                CsrGraph g = done.orElseThrow().graph().build();
                assertEquals(from > 0 && from <= expected.arcs(), g.wide(), "wide from " + from + " arcs");
                assertEquals(expected.arcs(), g.arcs());
                CsrGraph want = expected.widen(g.pages().pageArcs());
                assertArrayEquals(want.rowOffsetsLong(), g.rowOffsetsLong());
                assertArrayEquals(want.pages().columns(), g.pages().columns());
                assertArrayEquals(want.pages().weights(), g.pages().weights());
                assertArrayEquals(want.pages().edgeIds(), g.pages().edgeIds());
                assertEquals(expected.edgeCount(), g.edgeCount());
            }
        }
    }

    @ParameterizedTest(name = "shuffle seed {0}")
    @ValueSource(longs = {5, 6, 7})
    void assemblesChunksDecodedSideBySideInAnyOrderWithRedeliveries(long shuffleSeed) {
        EdgeList base = UniformRandomGraph.generate(500, 4_000, SEED, 100, false);
        EdgeList edges = new EdgeList(600, false);   // vertices 500..599 isolated
        Random r = new Random(shuffleSeed);
        for (int i = 0; i < base.size(); i++) {
            edges.add(base.source(i), base.target(i), base.weight(i));
            if (i % 7 == 0) edges.add(base.target(i), base.source(i), r.nextBoolean() ? base.weight(i) : r.nextInt(100));
            if (i % 13 == 0) edges.add(base.source(i), base.source(i), 3);
        }
        List<GraphSnapshotChunk> chunks = Fixtures.snapshot("g", 9, edges, 1, 97);
        List<GraphSnapshotChunk> arriving = new ArrayList<>(chunks);
        for (int i = 0; i < chunks.size(); i += 5) arriving.add(chunks.get(i));   // redelivered
        Collections.shuffle(arriving, new Random(shuffleSeed));
        arriving.add(chunks.get(0));   // once more after the rest: the version then completes at an earlier one
        try (ChunkDecoders decoders = new ChunkDecoders(4)) {
            SnapshotAssembler side = new SnapshotAssembler(Long.MAX_VALUE, decoders);
            Optional<Assembled> done = Optional.empty();
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (GraphSnapshotChunk c : arriving) {
                if (done.isPresent()) break;
                seen.add(c.getChunkIndex());
                Outcome o = side.accept(c, PARTITION);
                assertTrue(o.abandoned().isEmpty());
                assertEquals(seen.size() == chunks.size(), o.complete().isPresent(), "complete once every chunk came");
                if (o.complete().isEmpty()) {
                    assertTrue(side.pendingBytes() > 0 && side.isPending("g", 9));
                    assertEquals(seen.size(), side.pendingDescription("g").map(d -> d.contains(seen.size() + " of ")).orElseThrow()
                            ? seen.size() : -1, "the chunks counted, decoded or not");
                }
                done = o.complete();
            }
            assertEquals(0, side.pendingBytes(), "a complete version releases its buffer");
            assertBuildsAs(edges, done.orElseThrow());
        }
    }

    @ParameterizedTest(name = "shuffle seed {0}")
    @ValueSource(longs = {1, 2, 3, 42})
    void assemblesChunksArrivingInAnyOrder(long shuffleSeed) {
        EdgeList edges = UniformRandomGraph.generate(400, 3_000, SEED, 100, false);
        List<GraphSnapshotChunk> chunks = Fixtures.snapshot("g", 7, edges, 1, 256);
        assertEquals(12, chunks.size());
        List<GraphSnapshotChunk> shuffled = new ArrayList<>(chunks);
        Collections.shuffle(shuffled, new Random(shuffleSeed));
        Optional<Assembled> done = Optional.empty();
        for (int i = 0; i < shuffled.size(); i++) {
            Outcome o = accept(shuffled.get(i));
            assertTrue(o.abandoned().isEmpty());
            assertEquals(i == shuffled.size() - 1, o.complete().isPresent(),
                    "graph seed " + SEED + ", shuffle seed " + shuffleSeed + ": complete only after the last chunk (" + i + ")");
            if (o.complete().isPresent()) done = o.complete();
        }
        Assembled a = done.orElseThrow();
        assertEquals("g", a.graphId());
        assertEquals(7, a.version());
        assertEquals(1, a.firstVertexId());
        assertFalse(a.graph().directed());
        assertEquals(edges.vertexCount(), a.graph().vertexCount());
        assertEquals(edges.size(), a.graph().edges());
        assertEquals(0, assembler.pendingBytes(), "a complete version releases its buffer");
        // ids are back to 0-based; chunk order, not arrival order, decides which of equal parallel edges is kept
        assertBuildsAs(edges, a);
        assertTrue(assembler.pendingDescription("g").isEmpty());
    }

    @Test
    void redeliveredChunkIsIgnored() {
        List<GraphSnapshotChunk> c = threeChunks("g", 1);
        assertTrue(accept(c.get(0)).complete().isEmpty());
        assertTrue(accept(c.get(1)).complete().isEmpty());
        long bytes = assembler.pendingBytes();
        assertEquals(held(1, 6, 4, 2, 2), bytes);
        assertEquals(SnapshotAssembler.VERSION_OVERHEAD_BYTES + 4 * 7 + 2 * SnapshotAssembler.CHUNK_OVERHEAD_BYTES + 12L * 4, bytes,
                "12 bytes an edge of integral weights, as primitive arrays, 4 a vertex for the counts, and the overheads");
        Outcome again = accept(c.get(1));
        assertTrue(again.complete().isEmpty(), "a redelivered chunk must not count as the missing one");
        assertTrue(again.abandoned().isEmpty());
        assertEquals(bytes, assembler.pendingBytes());
        assertEquals("version 1 is being assembled (2 of 3 chunks)", assembler.pendingDescription("g").orElseThrow());
        Assembled a = accept(c.get(2)).complete().orElseThrow();
        assertEquals(6, a.graph().edges(), "edges of the redelivered chunk counted once");
        assertEquals(12, a.graph().build().arcCount(), "and placed once");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vertexCount", "directed", "chunkCount", "edgeCount", "firstVertexId"})
    void chunkThatDisagreesDiscardsTheWholeVersion(String field) {
        List<GraphSnapshotChunk> c = threeChunks("g", 1);
        UnaryOperator<GraphSnapshotChunk.Builder> change = switch (field) {
            case "vertexCount" -> b -> b.setVertexCount(7);
            case "directed" -> b -> b.setDirected(true);
            case "chunkCount" -> b -> b.setChunkCount(4);
            case "edgeCount" -> b -> b.setEdgeCount(5);
            case "firstVertexId" -> b -> b.setFirstVertexId(0);
            default -> throw new IllegalArgumentException(field);
        };
        accept(c.get(0));
        GraphSnapshotChunk odd = change.apply(GraphSnapshotChunk.newBuilder(c.get(1))).build();
        RejectedException e = assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(odd));
        assertTrue(e.getMessage().contains("disagrees"), e.getMessage());
        assertTrue(assembler.pendingDescription("g").isEmpty(), "the version is discarded");
        assertEquals(0, assembler.pendingBytes());
        // chunk 0 went with it: the remaining good chunks alone do not complete the version
        assertTrue(accept(c.get(1)).complete().isEmpty());
        assertTrue(accept(c.get(2)).complete().isEmpty());
        assertEquals("version 1 is being assembled (2 of 3 chunks)", assembler.pendingDescription("g").orElseThrow());
    }

    @Test
    void newerVersionAbandonsAnIncompleteOlderOne() {
        List<GraphSnapshotChunk> v1 = threeChunks("g", 1);
        accept(v1.get(0));
        accept(v1.get(2));
        Outcome o = accept(chunk("g", 2, 0, 1, 3, 1, false, 0, 0, 1, 1));
        assertEquals(1, o.abandoned().size());
        RejectedException abandoned = o.abandoned().get(0);
        assertEquals(ErrorCode.INCOMPLETE_SNAPSHOT, abandoned.code());
        assertTrue(abandoned.getMessage().contains("version 1"), abandoned.getMessage());
        assertTrue(abandoned.getMessage().contains("1 of 3 chunks never arrived (1)"), abandoned.getMessage());
        assertEquals(2, o.complete().orElseThrow().version());
        assertEquals(0, assembler.pendingBytes(), "the abandoned version's buffer is released");
    }

    @Test
    void abandonedVersionIsStillReportedWhenTheNewerOneIsRejected() {
        accept(threeChunks("g", 1).get(0));
        // version 2 has a vertex outside 0..2: rejected, but version 1's abandonment must not be lost
        RejectedException e = assertRejected(ErrorCode.INVALID_VERTEX, () -> accept(chunk("g", 2, 0, 1, 3, 1, false, 0, 0, 3, 1)));
        assertEquals(1, e.getSuppressed().length, "the abandonment travels with the rejection");
        assertEquals(ErrorCode.INCOMPLETE_SNAPSHOT, ((RejectedException) e.getSuppressed()[0]).code());
        assertEquals(0, assembler.pendingBytes());
    }

    @Test
    void olderVersionAfterANewerBeganIsStale() {
        List<GraphSnapshotChunk> v2 = threeChunks("g", 2);
        accept(v2.get(0));
        RejectedException e = assertRejected(ErrorCode.STALE_VERSION, () -> accept(threeChunks("g", 1).get(1)));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
        assertEquals("version 2 is being assembled (1 of 3 chunks)", assembler.pendingDescription("g").orElseThrow(),
                "the newer version keeps assembling");
        accept(v2.get(1));
        assertEquals(2, accept(v2.get(2)).complete().orElseThrow().version());
    }

    @Test
    void edgeCountMismatchIsATruncatedSnapshot() {
        // declares 5 edges, chunks hold 4 (truncated) ...
        accept(chunk("g", 1, 0, 2, 4, 5, true, 0, 0, 1, 1, 1, 2, 1));
        RejectedException e = assertRejected(ErrorCode.INVALID_SNAPSHOT,
                () -> accept(chunk("g", 1, 1, 2, 4, 5, true, 0, 2, 3, 1, 3, 0, 1)));
        assertTrue(e.getMessage().contains("declares 5 edges") && e.getMessage().contains("hold 4"), e.getMessage());
        assertEquals(0, assembler.pendingBytes());
        assertTrue(assembler.pendingDescription("g").isEmpty());
        // ... or more (padded)
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(chunk("g", 1, 0, 1, 4, 1, true, 0, 0, 1, 1, 1, 2, 1)));
    }

    @ParameterizedTest(name = "edge ({0}, {1})")
    @CsvSource({"0, 2", "2, 0", "1, 6", "6, 1", "-1, 3"})
    void vertexOutsideTheDeclaredRangeIsRejected(int u, int v) {
        // firstVertexId 1, five vertices: ids 1..5
        RejectedException e = assertRejected(ErrorCode.INVALID_VERTEX,
                () -> accept(chunk("g", 1, 0, 1, 5, 2, false, 1, 1, 5, 1, u, v, 1)));
        assertTrue(e.getMessage().contains("1..5"), e.getMessage());
        assertEquals(0, assembler.pendingBytes());
    }

    /**
     * Chunks are shifted and checked as they arrive, but a bad edge is reported when the version completes, as the
     * first bad edge in chunk order (not arrival order), in the user's ids, also ids whose shift overflows an int.
     */
    @ParameterizedTest(name = "first vertex id {0}")
    @ValueSource(ints = {1, Integer.MAX_VALUE - 10, -5})
    void theFirstBadEdgeInChunkOrderIsReportedInTheUsersIds(int first) {
        int bad = first > 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE;   // first - bad overflows an int
        accept(chunk("g", 1, 2, 3, 5, 6, false, first, first + 5, first, 1, first, first + 1, 1));
        accept(chunk("g", 1, 1, 3, 5, 6, false, first, first, first + 1, 1, bad, first + 2, 1));
        RejectedException e = assertRejected(ErrorCode.INVALID_VERTEX,
                () -> accept(chunk("g", 1, 0, 3, 5, 6, false, first, first, first + 4, 1, first + 1, first + 2, 1)));
        assertTrue(e.getMessage().contains("edge (" + bad + ", " + (first + 2) + ")"), e.getMessage());
        assertTrue(e.getMessage().contains(first + ".." + (first + 4L)), e.getMessage());
        assertEquals(0, assembler.pendingBytes());
    }

    /** An id whose distance from the first id wraps around an int into the range is still outside it. */
    @Test
    void anIdThatWrapsIntoTheRangeIsRejected() {
        int first = Integer.MAX_VALUE - 1;   // ids MAX-1 .. MAX+3: MIN - first wraps to 2
        RejectedException e = assertRejected(ErrorCode.INVALID_VERTEX,
                () -> accept(chunk("g", 1, 0, 1, 5, 1, true, first, Integer.MIN_VALUE, first, 1)));
        assertTrue(e.getMessage().contains("edge (" + Integer.MIN_VALUE + ", " + first + ")"), e.getMessage());
    }

    /** Weighted and unweighted chunks of one version, out of order: each edge in place, in 0-based ids. */
    @Test
    void chunksAreAssembledInChunkOrderWithTheirOwnWeights() {
        GraphSnapshotChunk unweighted = GraphSnapshotChunk.newBuilder(chunk("g", 1, 1, 3, 4, 5, true, 1))
                .setEdges(Fixtures.pairs(2, 3, 3, 4)).build();
        accept(chunk("g", 1, 2, 3, 4, 5, true, 1, 4, 1, 0.25));
        accept(unweighted);
        Assembled a = accept(chunk("g", 1, 0, 3, 4, 5, true, 1, 1, 2, 7, 2, 1, 8)).complete().orElseThrow();
        assertEquals(5, a.graph().edges());
        CsrGraph g = assertBuildsAs(edges(4, true, 0, 1, 7, 1, 0, 8, 1, 2, 1, 2, 3, 1, 3, 0, 0.25), a);
        assertArrayEquals(new double[] {7, 8, 1, 1, 0.25}, g.weights());
        assertFalse(g.integralWeights());
    }

    @Test
    void idsAtBothEndsOfTheRangeAreAccepted() {
        Assembled a = accept(chunk("g", 1, 0, 1, 5, 2, false, 1, 1, 5, 2, 5, 3, 4)).complete().orElseThrow();
        assertBuildsAs(edges(5, false, 0, 4, 2, 4, 2, 4), a);
    }

    @Test
    void emptyWeightsMeanWeightOne() {
        GraphSnapshotChunk c = GraphSnapshotChunk.newBuilder(chunk("g", 1, 0, 1, 3, 2, true, 0))
                .setEdges(Fixtures.pairs(0, 1, 1, 2)).build();
        Assembled a = accept(c).complete().orElseThrow();
        assertEquals(2, a.graph().edges());
        assertArrayEquals(new double[] {1.0, 1.0}, assertBuildsAs(edges(3, true, 0, 1, 1, 1, 2, 1), a).weights());
    }

    @Test
    void malformedHeadersAreInvalidSnapshots() {
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(chunk("g", 1, 3, 3, 4, 0, true, 0)));
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(chunk("g", 1, 0, 0, 4, 0, true, 0)));
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(chunk("", 1, 0, 1, 4, 0, true, 0)));
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(chunk("g", 1, 0, 1, -1, 0, true, 0)));
        GraphSnapshotChunk shortWeights = GraphSnapshotChunk.newBuilder(chunk("g", 1, 0, 1, 4, 2, true, 0))
                .setEdges(PackedArrays.edgeBatch(new int[] {0, 1}, new int[] {1, 2}, new double[] {1.0})).build();
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(shortWeights));
        assertEquals(0, assembler.pendingBytes());
    }

    @Test
    void packedArraysThatAreNotWholeElementsAreInvalidSnapshotsNamingTheField() {
        EdgeBatch good = Fixtures.weighted(0, 1, 1, 1, 2, 1);   // 8, 8 and 16 bytes
        EdgeBatch sevenByteSources = EdgeBatch.newBuilder(good).setSources(ByteBuffer.allocate(7)).build();
        EdgeBatch oddTargets = EdgeBatch.newBuilder(good).setTargets(ByteBuffer.wrap(new byte[] {1, 0, 0, 0, 2, 0})).build();
        EdgeBatch twelveByteWeights = EdgeBatch.newBuilder(good).setWeights(ByteBuffer.allocate(12)).build();
        for (Object[] bad : new Object[][] {{sevenByteSources, "edges.sources", "7 bytes", "multiple of 4"},
                {oddTargets, "edges.targets", "6 bytes", "multiple of 4"},
                {twelveByteWeights, "edges.weights", "12 bytes", "multiple of 8"}}) {
            GraphSnapshotChunk c = GraphSnapshotChunk.newBuilder(chunk("g", 1, 0, 1, 3, 2, true, 0)).setEdges((EdgeBatch) bad[0]).build();
            RejectedException e = assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(c));
            for (int k = 1; k < bad.length; k++) assertTrue(e.getMessage().contains((String) bad[k]), e.getMessage());
        }
        assertEquals(0, assembler.pendingBytes());
        assertEquals(2, accept(GraphSnapshotChunk.newBuilder(chunk("g", 1, 0, 1, 3, 2, true, 0)).setEdges(good).build())
                .complete().orElseThrow().graph().edges(), "the well-formed chunk of the same version is accepted");
    }

    @Test
    void pendingBytesLimitIsGraphTooLarge() {
        SnapshotAssembler small = new SnapshotAssembler(held(1, 10, 0, 3, 2));  // room for one version of five pending edges
        assertTrue(small.accept(chunk("a", 1, 0, 2, 10, 5, true, 0, 0, 1, 1, 1, 2, 1, 2, 3, 1), PARTITION).complete().isEmpty());
        assertEquals(held(1, 10, 0, 3), small.pendingBytes());
        RejectedException e = assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                () -> small.accept(chunk("b", 1, 0, 2, 10, 6, true, 0, 0, 1, 1, 1, 2, 1, 2, 3, 1), PARTITION));
        assertTrue(e.getMessage().contains(held(1, 10, 0, 3, 2) + " bytes"), e.getMessage());
        assertEquals(held(1, 10, 0, 3), small.pendingBytes(), "the rejected graph buffers nothing; the other keeps its chunks");
        assertTrue(small.pendingDescription("b").isEmpty());
        // graph a still completes: its last chunk fills the buffer exactly
        assertEquals(5, small.accept(chunk("a", 1, 1, 2, 10, 5, true, 0, 3, 4, 1, 4, 5, 1), PARTITION)
                .complete().orElseThrow().graph().edges());
        assertEquals(0, small.pendingBytes());
    }

    @Test
    void forgettingPartitionsReleasesTheirPendingVersions() {
        assembler.accept(threeChunks("a", 1).get(0), 1);
        assembler.accept(threeChunks("b", 1).get(0), 2);
        assertEquals(held(2, 6, 4, 2, 2), assembler.pendingBytes());
        assembler.forgetPartitions(List.of(1));
        assertTrue(assembler.pendingDescription("a").isEmpty());
        assertTrue(assembler.pendingDescription("b").isPresent());
        assertEquals(held(1, 6, 4, 2), assembler.pendingBytes());
    }

    @Test
    void aHeaderDeclaringBillionsOfChunksCostsOnlyTheChunksThatArrive() {
        // the 68-byte record of issue 12: two billion chunks declared, one edge sent
        GraphSnapshotChunk bomb = chunk("bomb", 1, 0, Integer.MAX_VALUE, 3, Integer.MAX_VALUE, true, 0, 0, 1, 1);
        assertTrue(accept(bomb).complete().isEmpty());
        assertEquals(held(1, 3, 0, 1), assembler.pendingBytes());
        assertEquals("version 1 is being assembled (1 of 2147483647 chunks)", assembler.pendingDescription("bomb").orElseThrow());
        RejectedException abandoned = accept(chunk("bomb", 2, 0, 1, 3, 1, true, 0, 0, 1, 1)).abandoned().get(0);
        assertTrue(abandoned.getMessage().contains("2147483646 of 2147483647 chunks never arrived (1, 2, 3, 4, 5, 6, 7, 8, ...)"),
                abandoned.getMessage());
        assertEquals(0, assembler.pendingBytes());
    }

    @Test
    void moreChunksThanEdgesOrMoreEdgesThanDeclaredAreInvalid() {
        RejectedException many = assertRejected(ErrorCode.INVALID_SNAPSHOT,
                () -> accept(chunk("g", 1, 0, 5, 3, 4, true, 0, 0, 1, 1)));
        assertTrue(many.getMessage().contains("5 chunks for 4 edges"), many.getMessage());
        assertRejected(ErrorCode.INVALID_SNAPSHOT, () -> accept(chunk("g", 1, 0, 2, 3, 0, true, 0)));
        assertTrue(accept(chunk("empty", 1, 0, 1, 3, 0, true, 0)).complete().isPresent(), "one chunk for no edge");
        // padding is caught as soon as the chunks hold more edges than declared, not only at the last chunk
        accept(chunk("p", 1, 0, 3, 4, 3, true, 0, 0, 1, 1, 1, 2, 1));
        RejectedException padded = assertRejected(ErrorCode.INVALID_SNAPSHOT,
                () -> accept(chunk("p", 1, 1, 3, 4, 3, true, 0, 2, 3, 1, 3, 0, 1)));
        assertTrue(padded.getMessage().contains("padded"), padded.getMessage());
        assertEquals(0, assembler.pendingBytes());
    }

    @Test
    void versionsIncompleteForTooLongExpireInTheirPartitionOnly() {
        assembler.accept(threeChunks("old", 1).get(0), 1, 10, 1_000);
        assembler.accept(threeChunks("other", 1).get(0), 2, 11, 1_000);
        assembler.accept(threeChunks("young", 1).get(0), 1, 12, 5_000);
        List<String> expired = new ArrayList<>();
        assembler.expire(p -> p == 1, 2_000, "within the test's TTL", (graphId, partition, firstOffset, reason) -> {
            expired.add(graphId + "@" + partition + ":" + firstOffset);
            assertEquals(ErrorCode.INCOMPLETE_SNAPSHOT, reason.code());
            assertTrue(reason.getMessage().contains("2 of 3 chunks never arrived (1, 2) within the test's TTL"), reason.getMessage());
        });
        assertEquals(List.of("old@1:10"), expired);
        assertTrue(assembler.pendingDescription("old").isEmpty());
        assertTrue(assembler.pendingDescription("other").isPresent(), "another partition's log has not moved on");
        assertTrue(assembler.pendingDescription("young").isPresent());
        assertEquals(12, assembler.earliestPendingOffset(1), "a rebuild no longer starts at the expired version");
        assertEquals(held(2, 6, 4, 2, 2), assembler.pendingBytes());
    }
}
