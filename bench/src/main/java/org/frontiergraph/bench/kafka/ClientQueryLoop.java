package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.query.Answers;

/**
 * The Java client's closed loop: 100 sequential {@code FrontierClient.query()} calls (after 20 warm-up), BFS and SSSP
 * FULL alternating on a 2,000-vertex graph, each verified by its algorithm's verifier; an embedded broker and a CPU
 * worker in this JVM. Prints the mean, p50 and p99 of the calls (docs/benchmarks.md, "One results reader per client").
 */
public final class ClientQueryLoop {
    private ClientQueryLoop() {}

    public static void main(String[] args) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary();
             FrontierWorker worker = FrontierWorker.start(broker.bootstrapServers(), Map.of("frontier.backend", "cpu",
                     "frontier.worker-id", "bench", "micronaut.server.port", -1));
             FrontierClient client = new FrontierClient(broker.bootstrapServers())) {
            EdgeList edges = UniformRandomGraph.generate(2_000, 10_000, 31, 100, false);
            CsrGraph g = GraphBuilder.build(edges);
            try (TopicWatcher<GraphStatus> status = client.watchStatus()) {
                client.publishSnapshot("g", 1, Snapshots.of(edges), 0, true, null);
                status.awaitFirst(s -> s.getGraphId().equals("g") && s.getState() == GraphState.LOADED, Duration.ofSeconds(90)).orElseThrow();
            }
            double[] ms = new double[120];
            for (int i = 0; i < 120; i++) {
                GraphQuery q = GraphQuery.newBuilder().setQueryId("q" + i).setGraphId("g")
                        .setAlgorithm(i % 2 == 0 ? Algorithm.BFS : Algorithm.SSSP).setSource((i * 37) % 2000).build();
                long t0 = System.nanoTime();
                List<QueryResult> r = client.query(q, Duration.ofSeconds(90)).orElseThrow();
                ms[i] = (System.nanoTime() - t0) / 1e6;
                if (!r.get(0).getQueryId().equals(q.getQueryId()) || !Answers.verify(g, r).ok()) throw new AssertionError("wrong answer " + i);
            }
            double[] timed = java.util.Arrays.copyOfRange(ms, 20, 120);
            double mean = java.util.Arrays.stream(timed).average().orElseThrow();
            java.util.Arrays.sort(timed);
            System.out.printf("RESULT 100 query() calls (after 20 warm-up), all verified: mean %.2f ms, p50 %.2f ms, p99 %.2f ms%n",
                    mean, timed[50], timed[98]);
        }
    }
}
