package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.worker.query.Answers;
import org.junit.jupiter.api.Test;

/**
 * Issue 29, bounded recovery, with real worker processes (CPU engine) and a real broker: (1) a worker checkpoints a
 * graph after 100,000 updates and is killed; the next owner installs the checkpoint, replays only the records after
 * it, answers on the right version (distances checked against Dijkstra on the expected graph) and still refuses a
 * retried update whose id the checkpoint's window holds; (2) with every record of the graphs topic deleted (as a short
 * retention would) once a checkpoint covers them, a new owner loses nothing; (3) without checkpoints, a deleted
 * snapshot is reported (RECORDS_LOST for the partition and for the graph, the lost-records metric, a start-up WARN
 * about the finite retention) and the partition still becomes ready.
 */
class CheckpointRecoveryIT extends FaultTest {
    static final long SEED = 0x29_0004L;
    static final int N = 2_000;
    static final String GRAPH = "ckpt";
    static final TopicPartition P0 = new TopicPartition(FaultSupport.GRAPHS, 0);
    static final Pattern REPLAY = Pattern.compile("replaying offsets (\\d+)\\.\\.(\\d+)");

    private WorkerProcess start(String id, String bootstrap, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(Map.of("frontier.topics.partitions", "1"));
        settings.putAll(extra);
        return WorkerProcess.start(id, bootstrap, dir, "512m", settings, Map.of()).awaitReady(Duration.ofSeconds(120));
    }

    /** The graph as the test follows it: canonical edges (u < v) and their current weights. */
    private static final class Expected {
        final CsrGraph base;
        final int[] us, vs;
        final double[] ws;
        long version = 1;

        Expected(EdgeList edges) {
            base = GraphBuilder.build(edges);
            List<int[]> canon = new ArrayList<>();
            for (int u = 0; u < base.vertexCount(); u++) {
                for (int a = base.rowStart(u); a < base.rowEnd(u); a++) if (u < base.columns()[a]) canon.add(new int[] {u, base.columns()[a], a});
            }
            us = canon.stream().mapToInt(e -> e[0]).toArray();
            vs = canon.stream().mapToInt(e -> e[1]).toArray();
            ws = canon.stream().mapToDouble(e -> base.weights()[e[2]]).toArray();
        }

        /** A re-weight of a random edge, applied here too. */
        GraphUpdate reweight(Random random, String id) {
            int e = random.nextInt(us.length);
            ws[e] = 1 + random.nextInt(100);
            version++;
            return GraphUpdate.newBuilder().setGraphId(GRAPH).setUpdateId(id)
                    .setReweighted(PackedArrays.edgeBatch(new int[] {us[e]}, new int[] {vs[e]}, new double[] {ws[e]})).build();
        }

        double[] distances() {
            EdgeList now = new EdgeList(base.vertexCount(), false, us.length);
            for (int i = 0; i < us.length; i++) now.add(us[i], vs[i], ws[i]);
            return DijkstraReference.run(GraphBuilder.build(now), 0).distances();
        }
    }

    @Test
    void aNewOwnerRebuildsFromTheCheckpointAndReplaysOnlyWhatFollowsIt() throws Exception {
        String bootstrap = startBroker("checkpoint", 1);
        worker = start("ckpt-a", bootstrap, Map.of("frontier.checkpoints.updates", "100000", "frontier.checkpoints.interval", "1h"));
        Random random = new Random(SEED);
        Expected expected = new Expected(UniformRandomGraph.generate(N, 4L * N, SEED, 100, false));
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            client.publishSnapshot(GRAPH, 1, Snapshots.of(edgesOf(expected)), 0, true, n -> {});
            Awaitility.await("the graph loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded(GRAPH, 1));
            long t0 = System.nanoTime();
            send(raw, expected, random, 0, 100_000);
            awaitVersion(out, expected.version, Duration.ofSeconds(180));
            double applySeconds = FaultSupport.seconds(System.nanoTime() - t0);
            Awaitility.await("the checkpoint written").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> worker.log().contains("checkpoint of graph") && worker.log().contains("written"));
            send(raw, expected, random, 100_000, 101_000);
            awaitVersion(out, expected.version, Duration.ofSeconds(60));
            long end = FaultSupport.endOffsets(bootstrap, 1).get(P0);
            Awaitility.await("the last batch committed").atMost(Duration.ofSeconds(30))
                    .until(() -> FaultSupport.committed(bootstrap).getOrDefault(P0, -1L) == end);

            worker.kill();
            long killed = System.nanoTime();
            worker = start("ckpt-b", bootstrap, Map.of("frontier.checkpoints.updates", "100000", "frontier.checkpoints.interval", "1h"));
            double readySeconds = FaultSupport.seconds(System.nanoTime() - killed);
            String log = worker.log();
            assertTrue(log.contains("restored from its checkpoint"), () -> "the new owner used the checkpoint:\n" + worker.tail());
            Matcher m = REPLAY.matcher(log);
            assertTrue(m.find(), () -> "the new owner replayed the records after the checkpoint:\n" + worker.tail());
            long replayed = Long.parseLong(m.group(2)) - Long.parseLong(m.group(1)) + 1;
            assertTrue(replayed <= 1_000 + 100, "replayed " + replayed + " records: only what followed the checkpoint (1,000 "
                    + "updates and what a batch held), not the 100,000 before it");

            checkAnswer(client, out, "after-failover", expected);
            // the checkpoint's window came back: retries of an update before it and of one after it are refused
            for (String id : List.of("u95000", "u100500")) {
                RecordMetadata r = raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, GRAPH, retryOf(id))).get();
                Awaitility.await("DUPLICATE_UPDATE for " + id).atMost(Duration.ofSeconds(60))
                        .until(() -> out.errors().stream().anyMatch(e -> e.getOffset() == r.offset() && e.getCode().equals("DUPLICATE_UPDATE")));
            }
            checkAnswer(client, out, "after-retries", expected);
            System.out.printf("[checkpoint] 101,000 updates (100,000 applied in %.1f s), checkpoint after 100,000, SIGKILL: the new "
                    + "owner ready in %.1f s, replayed %d records after the checkpoint, answered on version %d (verified against "
                    + "Dijkstra), 2 retries refused%n", applySeconds, readySeconds, replayed, expected.version);
        }
    }

    @Test
    void recordsDeletedOnceACheckpointCoversThemLoseNothing() throws Exception {
        String bootstrap = startBroker("retention", 1);
        Map<String, String> settings = Map.of("frontier.checkpoints.interval", "1s");
        worker = start("keep-a", bootstrap, settings);
        Random random = new Random(SEED + 1);
        Expected expected = new Expected(UniformRandomGraph.generate(N, 4L * N, SEED + 1, 100, false));
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            client.publishSnapshot(GRAPH, 1, Snapshots.of(edgesOf(expected)), 0, true, n -> {});
            Awaitility.await("the graph loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded(GRAPH, 1));
            send(raw, expected, random, 0, 500);
            awaitVersion(out, expected.version, Duration.ofSeconds(60));
            long end = FaultSupport.endOffsets(bootstrap, 1).get(P0);
            Awaitility.await("a commit that needs nothing before the end of the log").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250)).until(() -> rebuildFrom(bootstrap) == end);
            deleteBefore(bootstrap, end);   // what retention would delete: every record of the partition

            worker.kill();
            worker = start("keep-b", bootstrap, settings);
            assertTrue(worker.log().contains("restored from its checkpoint"), () -> worker.tail());
            checkAnswer(client, out, "after-retention", expected);
            assertTrue(out.errors().stream().noneMatch(e -> e.getCode().equals("RECORDS_LOST")), () -> "nothing lost: " + out.errors());
            send(raw, expected, random, 500, 510);   // and it goes on from there
            awaitVersion(out, expected.version, Duration.ofSeconds(60));
            checkAnswer(client, out, "after-more-updates", expected);
            System.out.printf("[checkpoint] every record of the graphs topic deleted after a checkpoint covered them: the new "
                    + "owner answered on version %d, nothing lost%n", expected.version);
        }
    }

    @Test
    void aSubscriptionCarriedByACheckpointOutlivesItsRecord() throws Exception {
        String bootstrap = startBroker("subscriptions", 1);
        Map<String, String> settings = Map.of("frontier.checkpoints.interval", "1s");
        worker = start("subs-a", bootstrap, settings);
        Random random = new Random(SEED + 3);
        Expected expected = new Expected(UniformRandomGraph.generate(N, 4L * N, SEED + 3, 100, false));
        Subscription standing = Subscription.newBuilder().setSubscriptionId("standing").setGraphId(GRAPH)
                .setAlgorithm(Algorithm.SSSP).setSource(0).setResultMode(ResultMode.DELTA).build();
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            client.publishSnapshot(GRAPH, 1, Snapshots.of(edgesOf(expected)), 0, true, n -> {});
            Awaitility.await("the graph loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded(GRAPH, 1));
            long subscribedAt = FaultSupport.endOffsets(bootstrap, 1).get(P0);
            try (SubscriptionFeed feed = client.subscribe(standing)) {
                Subscription gone = Subscription.newBuilder(standing).setSubscriptionId("gone").build();
                raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, GRAPH, FrontierCodec.encode(gone))).get();
                client.cancel(GRAPH, "gone");
                List<SubscriptionFeed.Push> before = follow(feed, expected);
                assertEquals(PushReason.INITIAL, before.get(0).reason());
                send(raw, expected, random, 0, 300);
                follow(feed, expected);
                long end = FaultSupport.endOffsets(bootstrap, 1).get(P0);
                Awaitility.await("a commit that needs nothing before the end of the log").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250)).until(() -> rebuildFrom(bootstrap) == end);
                assertTrue(rebuildFrom(bootstrap) > subscribedAt, "the subscription's record no longer holds the rebuild start");
                deleteBefore(bootstrap, end);   // the snapshot, the subscriptions' records and the updates

                worker.kill();
                long killed = System.nanoTime();
                worker = start("subs-b", bootstrap, settings);
                assertTrue(worker.log().contains("1 subscriptions"), () -> "the checkpoint carried the live subscription:\n" + worker.tail());
                List<SubscriptionFeed.Push> after = follow(feed, expected);
                assertEquals(PushReason.RESYNC, after.get(0).reason(), "the new owner pushes the answer complete");
                send(raw, expected, random, 300, 320);
                after = follow(feed, expected);
                for (int i = 0; i < after.size(); i++) {
                    assertEquals(PushReason.UPDATE, after.get(i).reason());
                    assertEquals(i + 1, after.get(i).sequence(), "the pushes after the RESYNC numbered on from it");
                }
                assertTrue(out.results().stream().noneMatch(a -> a.nanos() > killed && a.value().getQueryId().equals("gone")),
                        "the cancelled subscription stays cancelled");
                assertTrue(out.errors().stream().noneMatch(e -> e.getCode().equals("RECORDS_LOST")), () -> "nothing lost: " + out.errors());
                checkAnswer(client, out, "after-subscription-failover", expected);
                System.out.printf("[checkpoint] a subscription carried by the checkpoint: rebuild start %d past its record at %d, "
                        + "every record deleted, the new owner pushed RESYNC and %d UPDATEs up to version %d (each as Dijkstra's)%n",
                        end, subscribedAt, after.size(), expected.version);
            }
        }
    }

    /**
     * The pushes of {@code feed} until its answer describes the expected version: numbered in sequence from the first
     * (after a complete one, each the previous + 1); the answer then equals Dijkstra's on the expected graph.
     */
    private static List<SubscriptionFeed.Push> follow(SubscriptionFeed feed, Expected expected) {
        List<SubscriptionFeed.Push> pushes = new ArrayList<>();
        while (pushes.isEmpty() || pushes.get(pushes.size() - 1).graphVersion() < expected.version) {
            SubscriptionFeed.Push p = feed.next(Duration.ofSeconds(60)).orElseThrow(() -> new AssertionError("no push; version "
                    + expected.version + " expected"));
            assertEquals(SubscriptionFeed.Outcome.APPLIED, p.outcome(), () -> "push " + p.reason() + " #" + p.sequence());
            assertTrue(p.reason() != PushReason.END, () -> "the subscription ended: " + p.status() + " " + p.error());
            pushes.add(p);
        }
        assertEquals(expected.version, pushes.get(pushes.size() - 1).graphVersion());
        assertArrayEquals(expected.distances(), feed.view(GRAPH, "standing").distances(), "the standing answer as Dijkstra's");
        return pushes;
    }

    @Test
    void withoutCheckpointsADeletedSnapshotIsReportedAndThePartitionBecomesReady() throws Exception {
        String bootstrap = startBroker("lost", 1);
        Map<String, String> settings = Map.of("frontier.checkpoints.enabled", "false");
        worker = start("lost-a", bootstrap, settings);
        Random random = new Random(SEED + 2);
        Expected expected = new Expected(UniformRandomGraph.generate(N, 4L * N, SEED + 2, 100, false));
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            client.publishSnapshot(GRAPH, 1, Snapshots.of(edgesOf(expected)), 0, true, n -> {});
            Awaitility.await("the graph loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded(GRAPH, 1));
            long snapshotEnd = FaultSupport.endOffsets(bootstrap, 1).get(P0);
            send(raw, expected, random, 0, 50);
            awaitVersion(out, expected.version, Duration.ofSeconds(60));
            long end = FaultSupport.endOffsets(bootstrap, 1).get(P0);
            Awaitility.await("the last batch committed").atMost(Duration.ofSeconds(30))
                    .until(() -> FaultSupport.committed(bootstrap).getOrDefault(P0, -1L) == end);
            deleteBefore(bootstrap, snapshotEnd);   // the snapshot goes, its updates stay
            try (Admin admin = FaultSupport.admin(bootstrap)) {   // a finite retention, as an operator would set it
                ConfigResource graphs = new ConfigResource(ConfigResource.Type.TOPIC, FaultSupport.GRAPHS);
                admin.incrementalAlterConfigs(Map.of(graphs, List.of(new AlterConfigOp(new ConfigEntry("retention.ms", "3600000"),
                        AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            }

            worker.kill();
            worker = start("lost-b", bootstrap, settings);   // ready: the partition is not held back by what is gone
            assertTrue(worker.log().contains("checkpoints are off"), () -> "the start-up warning:\n" + worker.tail());
            Awaitility.await("RECORDS_LOST for the partition and the graph").atMost(Duration.ofSeconds(60)).until(() ->
                    lost(out, null) && lost(out, GRAPH));
            ErrorEvent partition = out.errors().stream().filter(e -> e.getCode().equals("RECORDS_LOST") && e.getGraphId() == null)
                    .findFirst().orElseThrow();
            assertEquals(0, partition.getOffset(), partition.getReason());
            String metrics = worker.httpBody("/prometheus");
            Matcher m = Pattern.compile("frontier_rebuild_lost_records_total(\\{[^}]*\\})? ([0-9.Ee+]+)").matcher(metrics);
            assertTrue(m.find(), metrics);
            assertEquals((double) snapshotEnd, Double.parseDouble(m.group(2)), "the lost records counted");
            QueryResult head = client.query(GraphQuery.newBuilder().setQueryId("after-loss").setGraphId(GRAPH)
                    .setAlgorithm(Algorithm.SSSP).setSource(0).setResultMode(ResultMode.SUMMARY).build(), Duration.ofSeconds(60))
                    .orElseThrow().get(0);
            assertEquals(ResultStatus.UNKNOWN_GRAPH, head.getStatus(), "the graph is gone, and said so");
            System.out.printf("[checkpoint] without checkpoints, a snapshot deleted by retention: RECORDS_LOST for partition 0 "
                    + "and graph '%s', %d records counted lost, the partition ready%n", GRAPH, snapshotEnd);
        }
    }

    private static boolean lost(OutputLog out, String graph) {
        return out.errors().stream().anyMatch(e -> e.getCode().equals("RECORDS_LOST") && java.util.Objects.equals(e.getGraphId(), graph));
    }

    private static EdgeList edgesOf(Expected x) {
        EdgeList e = new EdgeList(x.base.vertexCount(), false, x.us.length);
        for (int i = 0; i < x.us.length; i++) e.add(x.us[i], x.vs[i], x.ws[i]);
        return e;
    }

    private final Map<String, byte[]> sent = new HashMap<>();

    /** Publishes updates {@code from} .. {@code to - 1} (ids u<i>), each re-weighting one random edge. */
    private void send(KafkaProducer<String, byte[]> raw, Expected expected, Random random, int from, int to) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String id = "u" + i;
            byte[] bytes = FrontierCodec.encode(expected.reweight(random, id));
            if (i == 95_000 || i == 100_500) sent.put(id, bytes);
            acks.add(raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, GRAPH, bytes)));
        }
        raw.flush();
        for (Future<RecordMetadata> f : acks) f.get();
    }

    private byte[] retryOf(String id) {
        return sent.get(id);
    }

    private static void awaitVersion(OutputLog out, long version, Duration timeout) {
        Awaitility.await("version " + version).atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() ->
                out.statuses().stream().filter(s -> s.getGraphId().equals(GRAPH)).mapToLong(GraphStatus::getVersion).max().orElse(0) >= version);
    }

    /** The rebuild start the group's commit of partition 0 records (-1: none). */
    private static long rebuildFrom(String bootstrap) throws Exception {
        try (Admin admin = FaultSupport.admin(bootstrap)) {
            OffsetAndMetadata c = admin.listConsumerGroupOffsets(FaultSupport.GROUP).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS).get(P0);
            return c == null || c.metadata() == null || !c.metadata().startsWith("rebuildFrom=") ? -1
                    : Long.parseLong(c.metadata().split(";")[0].substring("rebuildFrom=".length()));   // ";checkpointFrom=..." may follow
        }
    }

    private static void deleteBefore(String bootstrap, long offset) throws Exception {
        try (Admin admin = FaultSupport.admin(bootstrap)) {
            admin.deleteRecords(Map.of(P0, RecordsToDelete.beforeOffset(offset))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** A FULL SSSP query from 0: answered on the expected version, with Dijkstra's distances on the expected graph. */
    private static void checkAnswer(FrontierClient client, OutputLog out, String queryId, Expected expected) {
        List<QueryResult> answer = client.query(GraphQuery.newBuilder().setQueryId(queryId).setGraphId(GRAPH)
                        .setAlgorithm(Algorithm.SSSP).setSource(0).setResultMode(ResultMode.FULL).build(), Duration.ofSeconds(60))
                .orElseThrow(() -> new AssertionError("no answer to " + queryId));
        QueryResult head = answer.get(0);
        assertEquals(ResultStatus.OK, head.getStatus(), head.getError());
        assertEquals(expected.version, head.getGraphVersion(), queryId + ": the version");
        assertArrayEquals(expected.distances(), Answers.decode(SsspResult.class, answer).distances(), queryId + ": distances as Dijkstra's");
    }

    private static KafkaProducer<String, byte[]> rawProducer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 << 10));
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
