package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.metrics.DeviceMemoryMetrics;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.metrics.GraphRecordCounter;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.subscription.SubscriptionService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/frontier-worker.json: every series a panel queries is one a worker exports, with a HELP text (the
 * worker's own meters registered on a Prometheus registry and scraped; the Kafka client's from a list checked on a
 * running worker), and the dashboard has the panels operations needs.
 */
class GrafanaDashboardTest {
    static final String FILE = "deploy/grafana/frontier-worker.json";
    /**
     * Series of micronaut-kafka's Kafka client metrics the dashboard uses: not registered without a broker, so listed
     * here; seen on `./frontier worker`'s /prometheus (2026-11-23), with HELP texts, topic label "frontier_graphs".
     */
    static final Set<String> KAFKA_CLIENT_SERIES = Set.of("kafka_consumer_records_lag_records", "kafka_consumer_records_lag_max_records");
    private static final Pattern SERIES = Pattern.compile("(?<![\"\\w])((?:frontier|kafka)_[a-z0-9_]+)\\b");

    private static EngineService engines;
    private static GraphRegistry graphs;
    private static String scrape;
    private final JsonNode dashboard = Repo.json(FILE);

    /**
     * A worker's meters, with one graph, one update, queries, an error, a partition being rebuilt and device memory,
     * scraped as Prometheus text.
     */
    @BeforeAll
    static void scrapeTheWorkersMeters() {
        FrontierCodec.trust();
        FrontierConfig config = new FrontierConfig();
        config.setBackend("cpu");
        engines = new EngineService(config);
        graphs = new GraphRegistry(engines, config);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        FrontierMetrics metrics = new FrontierMetrics(meters, graphs);
        graphs.acceptChunk(GraphSnapshotChunk.newBuilder().setGraphId("g").setVersion(1).setChunkIndex(0).setChunkCount(1)
                .setVertexCount(2).setEdgeCount(1).setDirected(true).setFirstVertexId(0)
                .setEdges(PackedArrays.edgeBatch(new int[] {0}, new int[] {1}, new double[] {1.0})).build(), 0);
        metrics.refreshGraphs();
        metrics.rebuilds().started(0, 0, 10);
        metrics.query(LatencyEvent.newBuilder().setQueryId("q").setGraphId("g").setAlgorithm(Algorithm.BFS)
                .setStatus(ResultStatus.OK).setBackend("cpu").setVertexCount(2).setEdgeCount(1).setQueuedMicros(1)
                .setDecodeMicros(1).setComputeMicros(5).setCopyMicros(0).setEncodeMicros(1).setEndToEndMicros(50)
                .setTimestampMs(1).setPickupMicros(1L).setEngineMicros(6L).setHandOverMicros(9L).setAcknowledgeMicros(30L).build());
        metrics.error(ErrorCode.UNKNOWN_GRAPH);
        DeviceMemoryMetrics.register(meters, new DeviceMemoryMetrics.DeviceMemory() {
            @Override public long used() { return 1; }
            @Override public OptionalLong free() { return OptionalLong.of(2); }
            @Override public long total() { return 3; }
        });
        GraphRecordCounter counter = new GraphRecordCounter();
        counter.configure(Map.of(GraphRecordCounter.REGISTRY, (Supplier<?>) () -> meters, GraphRecordCounter.TOPIC, "frontier.graphs"));
        TopicPartition tp = new TopicPartition("frontier.graphs", 0);
        counter.onConsume(new ConsumerRecords<>(Map.of(tp, List.of(new ConsumerRecord<Object, Object>("frontier.graphs", 0, 0, "g",
                FrontierCodec.encode(GraphUpdate.newBuilder().setGraphId("g").build()))))));
        new SubscriptionService(graphs, engines, config, meters);   // its meters: subscriptions, pushes, updates, flush time and steps
        scrape = meters.scrape();
    }

    @AfterAll
    static void close() {
        graphs.close();
        engines.close();
    }

    /** Series name -> HELP text, from the scrape (a histogram's or counter's suffixed series under its family's HELP). */
    private static Map<String, String> exported() {
        Map<String, String> help = new HashMap<>();
        String family = null;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# HELP ")) {
                String[] p = line.substring(7).split(" ", 2);
                family = p[0];
                help.put(family, p.length > 1 ? p[1].strip() : "");
            } else if (!line.startsWith("#") && !line.isBlank() && family != null) {
                String series = line.split("[{ ]", 2)[0];
                help.putIfAbsent(series, help.get(family));
            }
        }
        return help;
    }

    private List<String> expressions() {
        List<String> exprs = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        dashboard.path("templating").path("list").forEach(v -> {
            if (v.has("definition")) exprs.add(v.path("definition").asText());
        });
        return exprs;
    }

    @Test
    void everyQueriedSeriesIsExportedWithAHelpText() {
        Map<String, String> exported = exported();
        Set<String> queried = new TreeSet<>();
        for (String e : expressions()) {
            Matcher m = SERIES.matcher(e);
            while (m.find()) queried.add(m.group(1));
        }
        assertFalse(queried.isEmpty(), "the dashboard queries nothing");
        List<String> problems = new ArrayList<>();
        for (String s : queried) {
            if (KAFKA_CLIENT_SERIES.contains(s)) continue;
            if (!exported.containsKey(s)) problems.add(s + " is not exported by the worker");
            else if (exported.get(s).isBlank()) problems.add(s + " has no HELP text");
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems) + "\nexported: " + new TreeSet<>(exported.keySet()));
    }

    @Test
    void theWorkersOwnSeriesAllHaveHelpTexts() {
        List<String> blank = exported().entrySet().stream().filter(e -> e.getKey().startsWith("frontier_") && e.getValue().isBlank())
                .map(Map.Entry::getKey).toList();
        assertEquals(List.of(), blank, "frontier series without HELP");
    }

    @Test
    void hasThePanelsOperationsNeeds() {
        String all = String.join("\n", expressions());
        Map<String, String> needed = Map.ofEntries(
                Map.entry("queries per second by algorithm", "sum by (algorithm) (rate(frontier_queries_total"),
                Map.entry("p50 latency", "histogram_quantile(0.5, sum by (le, algorithm) (rate(frontier_query_end_to_end_seconds_bucket"),
                Map.entry("p99 latency", "histogram_quantile(0.99, sum by (le, algorithm) (rate(frontier_query_end_to_end_seconds_bucket"),
                Map.entry("errors by code", "sum by (code) (rate(frontier_errors_total"),
                Map.entry("graphs resident", "frontier_graphs_resident"),
                Map.entry("bytes resident", "frontier_graphs_bytes"),
                Map.entry("device memory", "frontier_device_memory_used_bytes"),
                Map.entry("consumer lag of the graphs topic", "kafka_consumer_records_lag_records{instance=~\"$instance\", topic=\"frontier_graphs\"}"),
                Map.entry("update rate", "frontier_records_total{instance=~\"$instance\", type=\"GraphUpdate\"}"),
                Map.entry("per-graph versions", "frontier_graph_version"),
                Map.entry("rebuild progress per partition", "frontier_rebuild_remaining_offsets"),
                Map.entry("subscriptions held", "frontier_subscriptions{"),
                Map.entry("pushes by reason", "sum by (reason) (rate(frontier_subscriptions_pushes_total"),
                Map.entry("standing answers by how they were updated", "sum by (how) (rate(frontier_subscriptions_updates_total"),
                Map.entry("flush time p99", "histogram_quantile(0.99, sum by (le) (rate(frontier_subscriptions_flush_seconds_bucket"),
                Map.entry("flush time by step", "histogram_quantile(0.99, sum by (le, step) (rate(frontier_subscriptions_flush_step_seconds_bucket"));
        needed.forEach((what, expr) -> assertTrue(all.contains(expr), "no panel for " + what + " (" + expr + ")"));
    }

    @Test
    void isAnImportableDashboard() {
        assertEquals("frontier-worker", dashboard.path("uid").asText());
        assertTrue(dashboard.path("schemaVersion").asInt() >= 36, "schemaVersion");
        Set<Integer> ids = new TreeSet<>();
        dashboard.path("panels").forEach(p -> {
            assertTrue(ids.add(p.path("id").asInt()), "duplicate panel id " + p.path("id"));
            assertTrue(p.path("gridPos").has("w") && p.path("gridPos").has("h"), "panel " + p.path("title") + " has a size");
            if (!p.path("type").asText().equals("row")) {
                assertEquals("${datasource}", p.path("datasource").path("uid").asText(), p.path("title") + ": the datasource variable");
                assertFalse(p.path("description").asText().isBlank(), p.path("title") + ": a description");
                assertFalse(p.path("targets").isEmpty(), p.path("title") + ": no query");
            }
        });
    }
}
