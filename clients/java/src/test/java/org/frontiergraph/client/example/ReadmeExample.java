package org.frontiergraph.client.example;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.client.SnapshotEdges;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * The example of clients/java/README.md, compiled by the build (ReadmeExampleTest checks the README shows exactly the
 * lines between the markers). Run it against a worker: {@code ./frontier worker}, then this main with the client's
 * classpath and {@code localhost:9092}.
 */
public final class ReadmeExample {
    private ReadmeExample() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args.length > 0 ? args[0] : "localhost:9092";
        Writer out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        // README example: begin
        try (FrontierClient client = new FrontierClient(bootstrap);
             TopicWatcher<GraphStatus> status = client.watchStatus()) {
            // a road network: 3 junctions, ids 1..3 (0-based here, shifted by firstVertexId 1), undirected, weighted
            SnapshotEdges roads = SnapshotEdges.of(3, false, new int[] {0, 1, 0}, new int[] {1, 2, 2}, new double[] {5, 1.5, 9});
            client.publishSnapshot("roads", 1, roads, 1, true, null);
            status.awaitFirst(s -> s.getGraphId().equals("roads") && s.getVersion() >= 1, Duration.ofSeconds(60))
                    .orElseThrow(() -> new IllegalStateException("no worker loaded roads version 1"));

            // a query: shortest distances from junction 1, every chunk of the answer
            GraphQuery sssp = GraphQuery.newBuilder().setQueryId(UUID.randomUUID().toString()).setGraphId("roads")
                    .setAlgorithm(Algorithm.SSSP).setSource(1).build();
            List<QueryResult> answer = client.query(sssp, Duration.ofSeconds(60)).orElseThrow();
            JsonAnswer.write(answer, out);      // {"status":"OK","graphVersion":1,...,"distances":{"1":0,"2":5,"3":6.5},...}

            // a standing query: the whole answer first, then what changed after each update that changes it
            Subscription standing = Subscription.newBuilder().setSubscriptionId("roads-from-1").setGraphId("roads")
                    .setAlgorithm(Algorithm.SSSP).setSource(1).build();
            try (SubscriptionFeed feed = client.subscribe(standing)) {
                SubscriptionFeed.Push initial = feed.next(Duration.ofSeconds(60)).orElseThrow();   // reason INITIAL
                JsonAnswer.writePush(initial.chunks(), out);
                client.publishUpdate(GraphUpdate.newBuilder().setGraphId("roads").setUpdateId("faster-1-3").setBaseVersion(1L)
                        .setReweighted(PackedArrays.edgeBatch(new int[] {1}, new int[] {3}, new double[] {2})).build());
                SubscriptionFeed.Push delta = feed.next(Duration.ofSeconds(60)).orElseThrow();     // reason UPDATE, version 2
                JsonAnswer.writePush(delta.chunks(), out);                                         // junction 3 now at 2
                client.cancel("roads", "roads-from-1");                                            // its last push: END
            }
        }
        // README example: end
        out.flush();
    }
}
