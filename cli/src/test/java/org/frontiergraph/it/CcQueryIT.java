package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.frontiergraph.worker.query.Answers;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cc.CcVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Connected components end to end through a real broker: a sparse directed graph of many components (ids from 1)
 * and rome99 are loaded, CC is asked in FULL, SUMMARY and TARGETS mode, and the decoded answers are checked by
 * {@link CcVerifier} against {@link CcReference}; after an update that cuts a tree edge and joins two components the
 * answers follow on version 2.
 */
class CcQueryIT extends WorkerIT {
    static final long SEED = 29;

    @BeforeAll
    static void start() {
        startWorker(Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "cc-it-worker",
                "frontier.result-chunk-vertices", 1_000,
                "micronaut.server.port", -1));
    }

    private static void assertVerified(List<QueryResult> chunks, CsrGraph g, long version) {
        QueryResult h = chunks.get(0);
        assertEquals(ResultStatus.OK, h.getStatus(), () -> h.getQueryId() + ": " + h.getError());
        assertEquals(version, h.getGraphVersion());
        CcResult decoded = Answers.decode(CcResult.class, chunks);
        CcResult reference = CcReference.run(g);
        Verification v = CcVerifier.verify(g, decoded, reference);
        assertTrue(v.ok(), () -> h.getGraphId() + " v" + version + ": " + v.message());
        assertEquals(reference.components(), h.getComponents());
        assertEquals(reference.largest(), h.getLargestComponent());
    }

    private static GraphQuery mode(GraphQuery q, ResultMode mode, List<Integer> targets) {
        return GraphQuery.newBuilder(q).setResultMode(mode).setTargets(targets).build();
    }

    @Test
    void ccInEachModeIsVerifiedAfterTheBroker() throws Exception {
        EdgeList edges = UniformRandomGraph.generate(4_000, 2_600, SEED, 50, true);
        CsrGraph v1 = GraphBuilder.build(edges);
        CcResult ref1 = CcReference.run(v1);
        assertTrue(ref1.components() > 50 && ref1.largest() > 20, ref1.components() + " components, largest " + ref1.largest());
        LoadedGraph rome = Pipeline.rome();
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults()) {
            client.publishSnapshot("parts", 1, Snapshots.of(edges), 1, true, null);
            client.publishSnapshot("rome", 1, Snapshots.of(rome.edges()), rome.firstVertexId(), true, null);
            awaitLoaded(status, "parts", 1);
            awaitLoaded(status, "rome", 1);

            GraphQuery full = query("parts", Algorithm.CC, null);
            GraphQuery summary = mode(query("parts", Algorithm.CC, null), ResultMode.SUMMARY, List.of());
            List<Integer> targets = List.of(4_000, 1, 77, 1, 2_500);
            GraphQuery atTargets = mode(query("parts", Algorithm.CC, null), ResultMode.TARGETS, targets);
            GraphQuery romeFull = query("rome", Algorithm.CC, null);
            List.of(full, summary, atTargets, romeFull).forEach(client::publishQuery);

            List<QueryResult> fullChunks = await(results, full.getQueryId());
            assertEquals(4, fullChunks.size(), "4,000 vertices in chunks of 1,000");
            assertVerified(fullChunks, v1, 1);

            List<QueryResult> s = await(results, summary.getQueryId());
            assertEquals(1, s.size());
            assertEquals(ref1.components(), s.get(0).getComponents());
            assertEquals(ref1.largest(), s.get(0).getLargestComponent());
            assertNull(s.get(0).getLabels());

            List<QueryResult> t = await(results, atTargets.getQueryId());
            List<Integer> listed = new ArrayList<>(), labels = new ArrayList<>();
            for (QueryResult c : t) {
                IntBuffer v = PackedArrays.ints(c.getVertices()), l = PackedArrays.ints(c.getLabels());
                for (int i = 0; i < v.limit(); i++) {
                    listed.add(v.get(i));
                    labels.add(l.get(i));
                }
            }
            assertEquals(targets, listed);
            for (int i = 0; i < targets.size(); i++) {
                assertEquals(ref1.labels()[targets.get(i) - 1] + 1, labels.get(i), "label of target " + targets.get(i));
            }

            List<QueryResult> romeChunks = await(results, romeFull.getQueryId());
            assertVerified(romeChunks, rome.toCsr(), 1);
            assertEquals(1L, romeChunks.get(0).getComponents(), "rome99 is connected (docs/contract.md's example)");
            assertEquals(3_353L, romeChunks.get(0).getLargestComponent());

            // cut the first arc of a vertex of the largest component, and join vertex 0's component to another
            int cutU = withArc(v1, ref1, largestLabel(ref1)), cutV = v1.columns()[v1.rowStart(cutU)];
            int joinV = firstOutside(ref1, ref1.labels()[0]);
            CsrGraph v2 = GraphEdit.apply(v1, new int[] {cutU}, new int[] {cutV}, new int[0], new int[0], new double[0],
                    new int[] {0}, new int[] {joinV}, new double[] {1.0});
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("parts").setBaseVersion(1L)
                    .setRemoved(PackedArrays.edgeBatch(new int[] {cutU + 1}, new int[] {cutV + 1}, new double[0]))
                    .setAdded(PackedArrays.edgeBatch(new int[] {1}, new int[] {joinV + 1}, new double[] {1.0}))
                    .build());
            GraphQuery after = query("parts", Algorithm.CC, null);
            client.publishQuery(after);
            assertVerified(await(results, after.getQueryId()), v2, 2);
        }
    }

    /** The first vertex of component {@code label} with an out-arc. */
    private static int withArc(CsrGraph g, CcResult r, int label) {
        for (int v = 0; v < g.vertexCount(); v++) {
            if (r.labels()[v] == label && g.rowStart(v) < g.rowStart(v + 1)) return v;
        }
        throw new AssertionError("component " + label + " has no arc");
    }

    /** The label of a largest component. */
    private static int largestLabel(CcResult r) {
        int[] sizes = new int[r.labels().length];
        for (int l : r.labels()) sizes[l]++;
        int best = 0;
        for (int v = 0; v < sizes.length; v++) if (sizes[v] > sizes[best]) best = v;
        return best;
    }

    /** The first vertex whose label is not {@code label}. */
    private static int firstOutside(CcResult r, int label) {
        for (int v = 0; v < r.labels().length; v++) if (r.labels()[v] != label) return v;
        throw new AssertionError("one component only");
    }
}
