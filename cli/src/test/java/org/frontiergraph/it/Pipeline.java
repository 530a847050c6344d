package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.frontiergraph.worker.query.Answers;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;

/** Test-side helpers: publish, wait and verify through the real broker. */
public final class Pipeline {
    public static final Duration WAIT = Duration.ofSeconds(90);

    private Pipeline() {}

    static LoadedGraph rome() throws Exception {
        try (InputStream in = Pipeline.class.getResourceAsStream("/demo/rome99.gr.gz")) {
            return GraphFiles.read(in, "rome99.gr.gz", GraphFormat.DIMACS, false);
        }
    }

    static GraphStatus awaitLoaded(TopicWatcher<GraphStatus> status, String graphId, long version) {
        // >=: updates applied together report their last version only (docs/contract.md, "GraphStatus")
        return status.awaitFirst(s -> s.getGraphId().equals(graphId) && s.getVersion() >= version && s.getState() == GraphState.LOADED, WAIT)
                .orElseThrow(() -> new AssertionError("graph '" + graphId + "' version " + version + " never loaded"));
    }

    static GraphQuery query(String graphId, Algorithm algorithm, Integer source) {
        return GraphQuery.newBuilder().setQueryId(graphId + "-" + algorithm + "-" + UUID.randomUUID())
                .setGraphId(graphId).setAlgorithm(algorithm).setSource(source).build();
    }

    static List<QueryResult> await(TopicWatcher<QueryResult> results, String queryId) {
        return FrontierClient.awaitResult(results, queryId, WAIT)
                .orElseThrow(() -> new AssertionError("no result for query " + queryId));
    }

    /** Checks an OK result of a FULL-mode query on {@code expected} (version {@code version}) with the verifiers. */
    static void assertVerified(List<QueryResult> chunks, CsrGraph expected, long version) {
        QueryResult h = chunks.get(0);
        assertEquals(ResultStatus.OK, h.getStatus(), () -> "status of " + h.getQueryId() + ": " + h.getError());
        assertEquals(version, h.getGraphVersion(), "answered on the wrong version");
        Verification v = verify(chunks, expected);
        assertTrue(v.ok(), () -> h.getAlgorithm() + " on " + h.getGraphId() + " v" + version + ": " + v.message());
    }

    /** The verifiers' verdict on the chunks of a FULL-mode answer on {@code expected} (its algorithm's verifier). */
    public static Verification verify(List<QueryResult> chunks, CsrGraph expected) {
        return Answers.verify(expected, chunks);
    }
}
