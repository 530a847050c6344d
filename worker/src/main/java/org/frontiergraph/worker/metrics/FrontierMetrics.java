package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * The worker's Prometheus metrics (served at /prometheus; docs/operations.md lists them): queries by algorithm,
 * status and backend; latency histograms; errors by code; graphs and bytes resident per backend; and one series per
 * graph held (version, vertices, edges, bytes); the progress of each partition's rebuild from the log
 * ({@link RebuildProgress}). Device memory is {@link DeviceMemoryMetrics}, records read from the graphs topic
 * {@link GraphRecordCounter}; consumer lag comes from micronaut-kafka's Kafka client metrics
 * ({@code kafka_consumer_records_lag_records}). Every meter has a description: Prometheus shows it as HELP.
 */
@Singleton
public class FrontierMetrics {
    /** How often the per-graph series follow graphs that arrive or leave; their values are read at each scrape. */
    static final String GRAPH_REFRESH = "15s";

    private final MeterRegistry meters;
    private final GraphRegistry graphs;
    private final List<PerGraph> perGraph;
    private final RebuildProgress rebuilds;
    private final RecentLatencies recent = new RecentLatencies();

    /** One gauge per graph held: its rows are the graphs, tagged graph, partition and backend. */
    private record PerGraph(MultiGauge gauge, ToDoubleFunction<GraphEntry> value) {}

    public FrontierMetrics(MeterRegistry meters, GraphRegistry graphs) {
        this.meters = meters;
        this.graphs = graphs;
        Gauge.builder("frontier.graphs.resident", graphs, GraphRegistry::size)
                .description("Graphs held by this worker (one current version each)").register(meters);
        for (String backend : new String[] {"cpu", "gpu"}) {
            Gauge.builder("frontier.graphs.bytes", graphs, g -> g.residentBytes(backend)).tag("backend", backend)
                    .baseUnit("bytes").description("Bytes of graph data resident on each backend (GPU: device memory)")
                    .register(meters);
        }
        Gauge.builder("frontier.snapshots.pending.bytes", graphs, GraphRegistry::pendingSnapshotBytes).baseUnit("bytes")
                .description("Bytes of snapshot chunks buffered until their version is complete").register(meters);
        // the memory model (docs/operations.md, "Memory model"): its limit and what each part holds or sets aside
        Gauge.builder("frontier.memory.limit", graphs, g -> g.budget().limitBytes()).baseUnit("bytes")
                .description("The heap the memory model shares out (frontier.heap-budget-fraction of the maximum heap)").register(meters);
        java.util.Map<String, ToDoubleFunction<GraphRegistry>> parts = new java.util.LinkedHashMap<>();
        parts.put("graphs", GraphRegistry::graphBytes);
        parts.put("pending-snapshots", GraphRegistry::pendingSnapshotBytes);
        parts.put("standing-answers", g -> g.budget().standingBytes());
        parts.put("answers-in-flight", g -> g.budget().fixedBytes());
        parts.forEach((part, f) -> Gauge.builder("frontier.memory.reserved", graphs, f).tag("part", part).baseUnit("bytes")
                .description("Heap the memory model counts for each part: graphs with their query caches, snapshots being assembled, "
                        + "standing answers of subscriptions, and what is set aside for answers in flight, their encoded copies and the producer's buffer")
                .register(meters));
        FunctionCounter.builder("frontier.graphs.gpu.fallbacks", graphs, GraphRegistry::gpuFallbacks)
                .description("Graphs moved from the GPU to the CPU engine because updates grew them beyond the device's free memory")
                .register(meters);
        FunctionCounter.builder("frontier.updates.duplicates", graphs, GraphRegistry::duplicateUpdates)
                .description("Updates refused as DUPLICATE_UPDATE: their updateId was applied to the graph already (a retry)")
                .register(meters);
        FunctionCounter.builder("frontier.snapshots.refused.chunks", graphs, GraphRegistry::refusedChunks)
                .description("Snapshot chunks dropped without a word because their version was refused (GRAPH_TOO_LARGE) at an earlier chunk")
                .register(meters);
        Gauge.builder("frontier.updates.dedup.ids", graphs, GraphRegistry::dedupWindowIds)
                .description("Update ids held in the graphs' deduplication windows (frontier.update-dedup-window per graph)")
                .register(meters);
        perGraph = List.of(
                perGraph("frontier.graph.version", null, "The version of each graph held (an update adds 1)",
                        GraphEntry::version),
                perGraph("frontier.graph.vertices", null, "Vertices of each graph held", GraphEntry::vertexCount),
                perGraph("frontier.graph.edges", null, "Edges of each graph held (an undirected edge counts once)", GraphEntry::edgeCount),
                perGraph("frontier.graph.bytes", "bytes", "Bytes each graph held occupies on its backend",
                        e -> e.resident().residentBytes()));
        rebuilds = new RebuildProgress(meters);
        refreshGraphs();
    }

    /** The end-to-end latencies of the last queries of each algorithm and backend (the live page's exact percentiles). */
    public RecentLatencies recentLatencies() {
        return recent;
    }

    /** The rebuild progress of the partitions this worker was assigned. */
    public RebuildProgress rebuilds() {
        return rebuilds;
    }

    private PerGraph perGraph(String name, String unit, String description, ToDoubleFunction<GraphEntry> value) {
        return new PerGraph(MultiGauge.builder(name).baseUnit(unit).description(description).register(meters), value);
    }

    /**
     * Makes the per-graph series follow the graphs held: a series for each graph that arrived, none for one that
     * left. The values themselves are read at each scrape.
     */
    @Scheduled(fixedDelay = GRAPH_REFRESH, initialDelay = GRAPH_REFRESH)
    public void refreshGraphs() {
        for (PerGraph p : perGraph) {
            p.gauge().register(graphs.all().stream().map(e -> MultiGauge.Row.of(Tags.of(
                            "graph", e.graphId(), "partition", Integer.toString(e.partition()), "backend", e.resident().backend()),
                    graphs, g -> g.get(e.graphId()).map(p.value()::applyAsDouble).orElse(Double.NaN))).toList(), true);
        }
    }

    /**
     * An answered query: counted, and its end-to-end and compute times recorded, and, where the worker timed them, its
     * time in the worker (from the poll that fetched it to its results handed to the producer). The meters of each
     * algorithm, status and backend are looked up once: a burst records tens of thousands of queries a second.
     */
    public void query(LatencyEvent e) {
        String algorithm = e.getAlgorithm() == null ? "unknown" : e.getAlgorithm().name();
        QueryMeters m = queryMeters.computeIfAbsent(new QueryKey(algorithm, e.getStatus().name(), e.getBackend()),
                k -> new QueryMeters(k.algorithm(), k.status(), k.backend()));
        m.answered.increment();
        m.endToEnd.record(Duration.ofNanos(e.getEndToEndMicros() * 1000));
        recent.record(m.recentKey, e.getEndToEndMicros());
        m.compute.record(Duration.ofNanos(e.getComputeMicros() * 1000));
        if (e.getPickupMicros() != null && e.getHandOverMicros() != null) {
            m.inWorker.record(Duration.ofNanos((e.getPickupMicros() + e.getHandOverMicros()) * 1000));
        }
    }

    private record QueryKey(String algorithm, String status, String backend) {}

    private final Map<QueryKey, QueryMeters> queryMeters = new ConcurrentHashMap<>();

    /** The meters an answered query of one algorithm, status and backend records into. */
    private final class QueryMeters {
        final Counter answered;
        final Timer endToEnd, compute, inWorker;
        /** The recent latencies' row ({@link RecentLatencies}): algorithm and backend. */
        final String recentKey;

        QueryMeters(String algorithm, String status, String backend) {
            recentKey = algorithm + " " + backend(backend);
            answered = Counter.builder("frontier.queries").tag("algorithm", algorithm).tag("status", status)
                    .tag("backend", backend(backend))
                    .description("Queries answered, by algorithm, status (OK or the error's status) and backend")
                    .register(meters);
            endToEnd = timer("frontier.query.end_to_end", "Query latency from the query record's timestamp to its last result "
                    + "acknowledged by the broker", algorithm, backend);
            compute = timer("frontier.query.compute", "Time the engine spent computing a query's answer", algorithm, backend);
            inWorker = timer("frontier.query.in_worker", "Time a query spent in the worker, from the poll that fetched it to its "
                    + "results handed to the producer (the rest of end_to_end is Kafka's)", algorithm, backend);
        }
    }

    /**
     * A partition's part of a poll stopped early because its answers reached {@code frontier.max-batch-answer-bytes};
     * its remaining records are read again with the next poll.
     */
    public void pollCut() {
        Counter.builder("frontier.polls.cut")
                .description("Polls whose processing a partition stopped early because its answers reached "
                        + "frontier.max-batch-answer-bytes (the rest is read again)").register(meters).increment();
    }

    /** An error event published with this code. */
    public void error(ErrorCode code) {
        Counter.builder("frontier.errors").tag("code", code.name())
                .description("Error events published to frontier.errors, by error code").register(meters).increment();
    }

    private Timer timer(String name, String description, String algorithm, String backend) {
        return Timer.builder(name).tag("algorithm", algorithm).tag("backend", backend(backend)).description(description)
                .publishPercentileHistogram().register(meters);
    }

    private static String backend(String backend) {
        return backend.isEmpty() ? "none" : backend;
    }
}
