package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.assertVerified;
import static org.frontiergraph.it.Pipeline.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Graphs survive a worker restart and a second worker joining the group: each worker rebuilds the graphs of the
 * partitions it is assigned from the log (latest snapshot plus later updates) before answering their queries.
 */
class RebuildAndScaleOutIT extends GroupIT {
    @BeforeAll
    static void start() {
        startBroker();
    }

    static FrontierWorker worker(String id) {
        return worker(id, "rebuild-it", 4);
    }

    @Test
    void restartAndScaleOutLoseNoGraph() throws Exception {
        Map<String, CsrGraph> expected = new HashMap<>();
        List<String> ids = new ArrayList<>();
        FrontierWorker first = worker("first");   // creates the topics
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            try {
                for (int g = 0; g < 8; g++) {
                    String id = "g" + g;
                    EdgeList e = UniformRandomGraph.generate(400 + g, 2_000, 100 + g, 50, g % 2 == 0);
                    client.publishSnapshot(id, 1, Snapshots.of(e), 0, true, null);
                    expected.put(id, GraphBuilder.build(e));
                    ids.add(id);
                }
                for (String id : ids) awaitLoaded(status, id, 1);
                // an update on g0: version 2 is what every later worker must rebuild
                CsrGraph g0 = expected.get("g0");
                int v = g0.columns()[g0.rowStart(0)];
                client.publishUpdate(GraphUpdate.newBuilder().setGraphId("g0").setBaseVersion(1L)
                        .setReweighted(PackedArrays.edgeBatch(new int[] {0}, new int[] {v}, new double[] {49.5})).build());
                expected.put("g0", GraphEdit.reweight(g0, new int[] {0}, new int[] {v}, new double[] {49.5}));
                awaitLoaded(status, "g0", 2);
                GraphQuery q = query("g0", Algorithm.SSSP, 0);
                client.publishQuery(q);
                assertVerified(await(results, q.getQueryId()), expected.get("g0"), 2);
                // new snapshot versions of g1..g7: a rebuild of their partitions can start at these, not at offset 0
                for (int g = 1; g < 8; g++) {
                    String id = "g" + g;
                    EdgeList e = UniformRandomGraph.generate(300 + g, 1_500, 900 + g, 50, g % 2 == 1);
                    client.publishSnapshot(id, 10, Snapshots.of(e), 0, true, null);
                    expected.put(id, GraphBuilder.build(e));
                }
                for (int g = 1; g < 8; g++) awaitLoaded(status, "g" + g, 10);
                GraphQuery q10 = query("g3", Algorithm.SSSP, 1);
                client.publishQuery(q10);
                assertVerified(await(results, q10.getQueryId()), expected.get("g3"), 10);
            } finally {
                first.close();
            }

            // a query published while no worker runs is answered by the restarted one, on the rebuilt version 2
            GraphQuery whileDown = query("g0", Algorithm.BFS, 3);
            client.publishQuery(whileDown);
            FrontierWorker restarted = worker("restarted");
            try {
                assertVerified(await(results, whileDown.getQueryId()), expected.get("g0"), 2);

                // a second worker joins: partitions move, and every graph is still answered correctly
                FrontierWorker second = worker("second");
                try {
                    for (int round = 0; round < 2; round++) {
                        for (String id : ids) {
                            GraphQuery m = query(id, Algorithm.MST, null);
                            client.publishQuery(m);
                            assertVerified(await(results, m.getQueryId()), expected.get(id), id.equals("g0") ? 2 : 10);
                        }
                    }
                    long rebuiltBySecond = status.seen().stream().filter(s -> s.getWorker().equals("second")).count();
                    assertEquals(0, rebuiltBySecond, "replayed versions publish no status events");
                } finally {
                    second.close();
                }
            } finally {
                restarted.close();
            }
            assertTrue(errors.seen().isEmpty(), () -> "no errors expected: " + errors.seen());
        }
    }
}
