package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.it.Pipeline;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.junit.jupiter.api.Test;

/**
 * The "heavy and hostile" suite (issue 27): well-formed records whose consequences are too big. Each test runs a real
 * broker and a worker process as the image starts it ({@code -XX:+ExitOnOutOfMemoryError}, a small heap), one
 * partition so that the offending records and good traffic share it, and ends with the worker live and ready, every
 * good query answered exactly once (no re-delivered chunk either) and verified, and the offending records answered
 * with an error result or event, once. Rows 5-8 of the table have tests of their own in this package
 * ({@code SharedSubscriptionIdIT}, {@code LogForgingIT}, {@code HttpExposureIT}, {@code DuplicateUpdateIT}); row 3 is
 * {@code SecuredClusterIT}.
 */
class HeavyAndHostileIT extends FaultTest {
    static final long SEED = 0xFA_0027L;

    private WorkerProcess startWorker(String heap, Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.put("frontier.topics.partitions", "1");
        return WorkerProcess.start("heavy", broker.bootstrapServers(), dir, heap, all).awaitReady(Duration.ofSeconds(90));
    }

    /** Row 1: records under 1 MB whose outputs would exceed the producer's limit. */
    @Test
    void outputsTooLargeForTheProducerAreRefusedOnceAndNeverRetried() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("heavy-outputs", 1);
        // a 16 KiB max.request.size: FULL answers come in more chunks, an APSP row of 2,500 distances (20 KB) cannot fit
        worker = startWorker("256m", Map.of("kafka.producers.frontier-output.max.request.size", "16384"));
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            Traffic good = new Traffic(client, "good", 2, 300, SEED);
            good.publishSnapshots();
            EdgeList apspEdges = UniformRandomGraph.generate(2_500, 7_500, SEED, 50, false);
            client.publishSnapshot("wide", 1, Snapshots.of(apspEdges), 0, true, null);
            Awaitility.await("graphs loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> good.graphIds().stream().allMatch(g -> out.loaded(g, 1)) && out.loaded("wide", 1));

            String longQueryId = "q-" + "x".repeat(600_000);
            raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, "good-0", FrontierCodec.encode(GraphQuery.newBuilder()
                    .setQueryId(longQueryId).setGraphId("good-0").setAlgorithm(Algorithm.BFS).setSource(1).build()))).get();
            good.step();
            String longKey = "k".repeat(540_000);
            raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, longKey, FrontierCodec.encode(GraphQuery.newBuilder()
                    .setQueryId("keyed-long").setGraphId("good-0").setAlgorithm(Algorithm.BFS).setSource(1).build()))).get();
            good.step();
            String longSubId = "s-" + "y".repeat(50_000);
            List<Integer> targets = new ArrayList<>();
            for (int v = 0; v < 300; v++) targets.add(v);
            raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, "good-1", FrontierCodec.encode(Subscription.newBuilder()
                    .setSubscriptionId(longSubId).setGraphId("good-1").setAlgorithm(Algorithm.SSSP).setSource(0)
                    .setResultMode(ResultMode.TARGETS).setTargets(targets).build()))).get();
            good.step();
            client.publishQuery(GraphQuery.newBuilder().setQueryId("apsp-wide").setGraphId("wide").setAlgorithm(Algorithm.APSP)
                    .setVariant("repeated-sssp").build());
            good.step();
            client.publishQuery(GraphQuery.newBuilder().setQueryId("sssp-wide").setGraphId("wide").setAlgorithm(Algorithm.SSSP)
                    .setSource(0).build());
            for (int i = 0; i < 20; i++) good.step();

            Awaitility.await("every good query answered").atMost(Duration.ofSeconds(90)).until(() -> good.allAnswered(out));
            Awaitility.await("the offending records answered").atMost(Duration.ofSeconds(60)).until(() ->
                    errorsFor(out, e -> e.getQueryId() != null && e.getQueryId().startsWith("q-xxxx")) == 1
                            && errorsFor(out, e -> e.getKey() != null && e.getKey().startsWith("kkkk")) == 1
                            && errorsFor(out, e -> e.getQueryId() != null && e.getQueryId().startsWith("s-yyyy")) == 1
                            && Traffic.answeredAt(out.resultsByQuery().get("apsp-wide")) >= 0
                            && Traffic.answeredAt(out.resultsByQuery().get("sssp-wide")) >= 0);
            Thread.sleep(3_000);   // a worker that loops would publish them again meanwhile

            Map<String, List<OutputLog.Arrival<QueryResult>>> by = out.resultsByQuery();
            assertEquals(1, errorsFor(out, e -> e.getQueryId() != null && e.getQueryId().startsWith("q-xxxx")
                    && e.getCode().equals("INVALID_QUERY") && e.getQueryId().length() < 1_000), "one INVALID_QUERY event for the 600 KB id, cut");
            assertEquals(1, errorsFor(out, e -> e.getKey() != null && e.getKey().startsWith("kkkk") && e.getCode().equals("INVALID_KEY")
                    && e.getKey().length() < 1_000), "one INVALID_KEY event for the 540 KB key, cut");
            assertEquals(1, errorsFor(out, e -> e.getQueryId() != null && e.getQueryId().startsWith("s-yyyy")
                    && e.getCode().equals("INVALID_QUERY")), "one INVALID_QUERY event for the 50 KB subscription id");
            assertTrue(by.keySet().stream().noneMatch(id -> id.length() > 1_100), "no result keyed by an over-long id");
            List<OutputLog.Arrival<QueryResult>> apsp = by.get("apsp-wide");
            int apspChunks = apsp.get(0).value().getChunkCount();
            assertEquals(apspChunks, apsp.size(), "every APSP chunk once");
            assertTrue(apsp.stream().allMatch(a -> a.value().getStatus() == ResultStatus.RESOURCE_EXHAUSTED),
                    "each APSP chunk replaced by a RESOURCE_EXHAUSTED one");
            long apspEvents = errorsFor(out, e -> "apsp-wide".equals(e.getQueryId()) && e.getCode().equals("RESOURCE_EXHAUSTED"));
            assertEquals(apspChunks, apspEvents, "one RESOURCE_EXHAUSTED event per replaced chunk");
            List<QueryResult> sssp = by.get("sssp-wide").stream().map(OutputLog.Arrival::value).toList();
            assertTrue(sssp.size() > 1 && sssp.stream().allMatch(r -> r.getStatus() == ResultStatus.OK), "the FULL answer in more, smaller chunks");
            Verification v = Pipeline.verify(sortedChunks(sssp), GraphBuilder.build(apspEdges));
            assertTrue(v.ok(), v::message);

            Traffic.Report report = good.check(out);
            String liveness = worker.httpBody("/health/liveness");
            String log = worker.log();
            int loops = count(log, "publishing outputs failed");
            System.out.printf(Locale.ROOT, "[heavy 1] 600 KB query id, 540 KB key, 50 KB subscription id: one error event each; "
                            + "APSP over a 16 KiB max.request.size: %d chunks replaced by RESOURCE_EXHAUSTED results and %d events; "
                            + "FULL SSSP in %d chunks, verified; good traffic: %s; %d publish retries; log %d KB; %.1f s%n",
                    apspChunks, apspEvents, sssp.size(), report, loops, log.length() / 1024, FaultSupport.seconds(System.nanoTime() - t0));
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertEquals(0, report.duplicateChunks(), "every good query answered exactly once");
            assertEquals(0, loops, "no output was retried");
            assertLive(liveness);
        }
    }

    /** Row 2: a thousand DELTA SSSP subscriptions, each from its own source, on a graph a small heap holds. */
    @Test
    void aThousandSubscriptionsStayWithinTheMemoryModelAndARestartServes() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("heavy-subscriptions", 1);
        worker = startWorker("256m", Map.of());
        int n = 50_000, subscriptions = 1_000;
        EdgeList edges = UniformRandomGraph.generate(n, 200_000, SEED, 100, false);
        CsrGraph graph = GraphBuilder.build(edges);
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            Traffic good = new Traffic(client, "good", 2, 300, SEED);
            good.publishSnapshots();
            client.publishSnapshot("big", 1, Snapshots.of(edges), 0, true, null);
            Awaitility.await("graphs loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> good.graphIds().stream().allMatch(g -> out.loaded(g, 1)) && out.loaded("big", 1));
            for (int i = 0; i < subscriptions; i++) {
                client.publishSubscription(Subscription.newBuilder().setSubscriptionId("sub-" + i).setGraphId("big")
                        .setAlgorithm(Algorithm.SSSP).setSource((int) ((i * 7919L) % n)).setResultMode(ResultMode.DELTA).build());
                if (i % 100 == 0) good.step();
            }
            Awaitility.await("every subscription answered or refused").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> firstPushes(out, "sub-").size() == subscriptions);
            Map<String, QueryResult> first = firstPushes(out, "sub-");
            int initial = 0, refused = 0;
            List<String> failures = new ArrayList<>();
            for (Map.Entry<String, QueryResult> e : first.entrySet()) {
                QueryResult r = e.getValue();
                if (r.getReason() == PushReason.INITIAL && r.getStatus() == ResultStatus.OK) initial++;
                else if (r.getReason() == PushReason.END && r.getStatus() == ResultStatus.RESOURCE_EXHAUSTED) refused++;
                else failures.add(e.getKey() + ": " + r.getReason() + " " + r.getStatus() + " " + r.getError());
            }
            // the accepted ones' first answers are exact
            int checked = 0;
            for (String id : first.keySet()) {
                if (first.get(id).getReason() != PushReason.INITIAL || checked >= 20) continue;
                Verification v = Pipeline.verify(sortedChunks(pushChunks(out, id, 0)), graph);
                if (!v.ok()) failures.add(id + ": " + v.message());
                checked++;
            }
            for (int i = 0; i < 10; i++) good.step();
            Awaitility.await("good queries answered").atMost(Duration.ofSeconds(60)).until(() -> good.allAnswered(out));
            String memory = worker.httpBody("/prometheus").lines().filter(l -> l.startsWith("frontier_memory_reserved")).toList().toString();

            // a restart replays the subscriptions and pushes them complete, paced within the same budget
            Duration stopped = worker.terminate(Duration.ofSeconds(30));
            assertTrue(stopped != null, "the worker stopped");
            long restart = System.nanoTime();
            worker = startWorker("256m", Map.of());
            long readyAfter = System.nanoTime() - restart;
            Awaitility.await("every accepted subscription pushed again (RESYNC)").atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> resyncs(out) >= Math.max(1, first.values().stream()
                            .filter(r -> r.getReason() == PushReason.INITIAL).count()));
            for (int i = 0; i < 10; i++) good.step();
            Awaitility.await("good queries answered after the restart").atMost(Duration.ofSeconds(60)).until(() -> good.allAnswered(out));
            Traffic.Report report = good.check(out);
            System.out.printf(Locale.ROOT, "[heavy 2] %d DELTA SSSP subscriptions on %d vertices, -Xmx256m: %d answered (INITIAL), %d refused "
                            + "RESOURCE_EXHAUSTED, %d first answers verified; memory model %s; restart ready in %.1f s, %d RESYNC pushes; "
                            + "good traffic: %s; %.1f s%n",
                    subscriptions, n, initial, refused, checked, memory, FaultSupport.seconds(readyAfter), resyncs(out), report,
                    FaultSupport.seconds(System.nanoTime() - t0));
            assertTrue(failures.isEmpty(), () -> String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
            assertTrue(initial > 0 && refused > 0, "some subscriptions fit, the rest were refused");
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertLive(worker.httpBody("/health/liveness"));
        }
    }

    /** Row 4: graphs filling the heap budget, then one FULL SSSP query for each. */
    @Test
    void fullAnswersOnAFullBudgetAreAnsweredInTurnsAndARestartServes() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("heavy-full", 1);
        worker = startWorker("256m", Map.of());
        int graphs = 40;
        Map<String, CsrGraph> models = new LinkedHashMap<>();
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            for (int i = 0; i < graphs; i++) {
                EdgeList e = UniformRandomGraph.generate(10_000, 50_000, SEED + i, 100, false);
                models.put("fill-" + i, GraphBuilder.build(e));
                client.publishSnapshot("fill-" + i, 1, Snapshots.of(e), 0, true, null);
            }
            Awaitility.await("every snapshot loaded or refused").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> models.keySet().stream().allMatch(g -> out.loaded(g, 1)
                            || out.errors().stream().anyMatch(e -> g.equals(e.getGraphId()) && e.getCode().equals("GRAPH_TOO_LARGE"))));
            List<String> loaded = models.keySet().stream().filter(g -> out.loaded(g, 1)).toList();
            for (String g : models.keySet()) {
                client.publishQuery(GraphQuery.newBuilder().setQueryId("full-" + g).setGraphId(g).setAlgorithm(Algorithm.SSSP)
                        .setSource(1).build());
            }
            Awaitility.await("every FULL query answered").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> models.keySet().stream().allMatch(g -> Traffic.answeredAt(out.resultsByQuery().get("full-" + g)) >= 0));
            List<String> failures = new ArrayList<>();
            int verified = 0;
            for (String g : models.keySet()) {
                List<QueryResult> chunks = out.resultsByQuery().get("full-" + g).stream().map(OutputLog.Arrival::value).toList();
                if (chunks.size() != chunks.get(0).getChunkCount()) failures.add(g + ": " + chunks.size() + " chunks delivered");
                if (!loaded.contains(g)) {
                    if (chunks.get(0).getStatus() != ResultStatus.UNKNOWN_GRAPH) failures.add(g + ": refused graph answered " + chunks.get(0).getStatus());
                    continue;
                }
                Verification v = Pipeline.verify(sortedChunks(chunks), models.get(g));
                if (v.ok()) verified++;
                else failures.add(g + ": " + v.message());
            }
            String memory = worker.httpBody("/prometheus").lines().filter(l -> l.startsWith("frontier_memory_")).toList().toString();
            worker.terminate(Duration.ofSeconds(30));
            long restart = System.nanoTime();
            worker = startWorker("256m", Map.of());
            long readyAfter = System.nanoTime() - restart;
            String probe = loaded.get(loaded.size() - 1);
            client.publishQuery(GraphQuery.newBuilder().setQueryId("after-" + probe).setGraphId(probe).setAlgorithm(Algorithm.SSSP)
                    .setSource(2).build());
            Awaitility.await("a query after the restart").atMost(Duration.ofSeconds(60))
                    .until(() -> Traffic.answeredAt(out.resultsByQuery().get("after-" + probe)) >= 0);
            List<QueryResult> after = out.resultsByQuery().get("after-" + probe).stream().map(OutputLog.Arrival::value).toList();
            Verification v = Pipeline.verify(sortedChunks(after), models.get(probe));
            System.out.printf(Locale.ROOT, "[heavy 4] %d graphs of 10,000 vertices and 50,000 edges at -Xmx256m: %d loaded, %d refused "
                            + "GRAPH_TOO_LARGE; %d FULL SSSP answers verified, each exactly once; %s; restart ready in %.1f s, a query "
                            + "after it %s; %.1f s%n", graphs, loaded.size(), graphs - loaded.size(), verified, memory,
                    FaultSupport.seconds(readyAfter), v.ok() ? "verified" : v.message(), FaultSupport.seconds(System.nanoTime() - t0));
            assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
            assertTrue(loaded.size() >= 5 && loaded.size() < graphs, "the budget filled: " + loaded.size() + " loaded");
            assertTrue(v.ok(), v::message);
            assertLive(worker.httpBody("/health/liveness"));
        }
    }

    /** Row 9: a subscription that would hold pushes back for weeks, and one that would re-send a million targets. */
    @Test
    void runawayIntervalsAndTargetListsAreRefused() throws Exception {
        String bootstrap = startBroker("heavy-pushes", 1);
        worker = startWorker("256m", Map.of());
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            Traffic good = new Traffic(client, "good", 1, 300, SEED);
            good.publishSnapshots();
            Awaitility.await("loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded("good-0", 1));
            client.publishSubscription(Subscription.newBuilder().setSubscriptionId("slow").setGraphId("good-0").setAlgorithm(Algorithm.SSSP)
                    .setSource(0).setMinIntervalMs(Integer.MAX_VALUE).build());
            List<Integer> targets = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) targets.add(i % 300);
            client.publishSubscription(Subscription.newBuilder().setSubscriptionId("wide").setGraphId("good-0").setAlgorithm(Algorithm.SSSP)
                    .setSource(0).setResultMode(ResultMode.TARGETS).setTargets(targets).build());
            for (int i = 0; i < 5; i++) good.step();
            Awaitility.await("both refused").atMost(Duration.ofSeconds(60)).until(() -> firstPushes(out, "").keySet().containsAll(List.of("slow", "wide"))
                    && good.allAnswered(out));
            Map<String, QueryResult> first = firstPushes(out, "");
            Traffic.Report report = good.check(out);
            System.out.printf(Locale.ROOT, "[heavy 9] minIntervalMs 2^31-1: %s %s; 20,000 TARGETS: %s %s; good traffic: %s%n",
                    first.get("slow").getReason(), first.get("slow").getStatus(), first.get("wide").getReason(), first.get("wide").getStatus(), report);
            for (String id : List.of("slow", "wide")) {
                assertEquals(PushReason.END, first.get(id).getReason(), id);
                assertEquals(ResultStatus.INVALID_QUERY, first.get(id).getStatus(), id);
            }
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertLive(worker.httpBody("/health/liveness"));
        }
    }

    private void assertLive(String liveness) {
        assertTrue(worker.alive(), "the worker is alive");
        assertTrue(liveness.contains("\"UP\"") && liveness.contains("\"restarts\":0"), liveness);
        assertEquals(200, worker.httpStatus("/health/readiness"), "ready");
        assertFalse(worker.log().contains("OutOfMemoryError"), "no OutOfMemoryError in the log");
    }

    private static long errorsFor(OutputLog out, java.util.function.Predicate<ErrorEvent> which) {
        return out.errors().stream().filter(which).count();
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) n++;
        return n;
    }

    /** The first push (chunk 0 of sequence 0, or an END) of each subscription whose id starts with {@code prefix}. */
    private static Map<String, QueryResult> firstPushes(OutputLog out, String prefix) {
        Map<String, QueryResult> first = new TreeMap<>();
        for (OutputLog.Arrival<QueryResult> a : out.results()) {
            QueryResult r = a.value();
            if (r.getReason() == null || !r.getQueryId().startsWith(prefix)) continue;
            first.putIfAbsent(r.getQueryId(), r);
        }
        return first;
    }

    /** The chunks of push {@code sequence} (the first complete one) of subscription {@code id}. */
    private static List<QueryResult> pushChunks(OutputLog out, String id, long sequence) {
        Map<Integer, QueryResult> chunks = new HashMap<>();
        for (OutputLog.Arrival<QueryResult> a : out.results()) {
            QueryResult r = a.value();
            if (r.getQueryId().equals(id) && r.getReason() == PushReason.INITIAL && r.getSequence() != null && r.getSequence() == sequence) {
                chunks.putIfAbsent(r.getChunkIndex(), r);
            }
        }
        return List.copyOf(chunks.values());
    }

    private static long resyncs(OutputLog out) {
        return out.results().stream().filter(a -> a.value().getReason() == PushReason.RESYNC && a.value().getChunkIndex() == 0).count();
    }

    private static List<QueryResult> sortedChunks(List<QueryResult> chunks) {
        return chunks.stream().sorted(java.util.Comparator.comparingInt(QueryResult::getChunkIndex)).toList();
    }

    private static KafkaProducer<String, byte[]> rawProducer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1 << 20));
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
