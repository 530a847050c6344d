package org.frontiergraph.worker.metrics;

import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.frontiergraph.worker.support.Fixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every meter the worker registers describes itself (Prometheus HELP), and the per-graph and record gauges count right. */
class FrontierMetricsTest {
    private final Services services = Fixtures.start(Fixtures.cpuConfig());
    private final SimpleMeterRegistry meters = services.meters();

    @AfterEach
    void close() {
        services.close();
    }

    @Test
    void everyMeterHasADescription() {
        services.install(snapshot("g", 7, Fixtures.edges(3, true, 0, 1, 1.0, 1, 2, 2.0), 1, 10), 4);
        services.metrics().query(latency(Algorithm.SSSP, ResultStatus.OK, "cpu"));
        services.metrics().query(latency(null, ResultStatus.UNKNOWN_GRAPH, ""));
        services.metrics().error(ErrorCode.UNKNOWN_GRAPH);
        services.metrics().refreshGraphs();
        services.metrics().rebuilds().started(4, 0, 10);
        new DeviceMemoryMetrics(services.engines()).bindTo(meters);
        GraphRecordCounter records = counter();
        records.count(records.type(FrontierCodec.encode(update("g"))));

        List<String> names = meters.getMeters().stream().map(m -> m.getId().getName()).distinct().sorted().toList();
        for (String expected : List.of("frontier.graphs.resident", "frontier.graphs.bytes", "frontier.snapshots.pending.bytes",
                "frontier.graph.version", "frontier.graph.vertices", "frontier.graph.edges", "frontier.graph.bytes",
                "frontier.queries", "frontier.query.end_to_end", "frontier.query.compute", "frontier.query.in_worker",
                "frontier.errors", "frontier.records",
                "frontier.rebuild.remaining", "frontier.rebuild.replayed")) {
            assertTrue(names.contains(expected), expected + " is not registered; registered: " + names);
        }
        for (Meter m : meters.getMeters()) {
            String d = m.getId().getDescription();
            assertTrue(d != null && !d.isBlank(), m.getId() + " has no description");
        }
    }

    @Test
    void perGraphSeriesFollowTheGraphsHeld() {
        services.install(snapshot("a", 7, Fixtures.edges(3, true, 0, 1, 1.0, 1, 2, 2.0), 1, 10), 4);
        services.install(snapshot("b", 9, Fixtures.edges(2, false, 0, 1, 1.0), 1, 10), 5);
        services.registry().applyUpdate(GraphUpdate.newBuilder().setGraphId("a").setAdded(weighted(3, 1, 4.0)).build(), 4);
        services.metrics().refreshGraphs();
        assertEquals(Map.of("a", 8.0, "b", 9.0), perGraph("frontier.graph.version"), "versions (a: 7 + one update)");
        assertEquals(Map.of("a", 3.0, "b", 2.0), perGraph("frontier.graph.vertices"));
        assertEquals(Map.of("a", 3.0, "b", 1.0), perGraph("frontier.graph.edges"), "a: 2 + 1 arcs; b: one undirected edge");
        assertTrue(perGraph("frontier.graph.bytes").values().stream().allMatch(v -> v > 0), "bytes resident");
        assertEquals("4", meters.get("frontier.graph.version").tag("graph", "a").gauge().getId().getTag("partition"));

        services.registry().dropPartitions(List.of(4));
        services.metrics().refreshGraphs();
        assertEquals(Map.of("b", 9.0), perGraph("frontier.graph.version"), "a left with its partition");
    }

    @Test
    void deviceMemoryGaugesOnlyWhereThereIsAGpu() {
        EngineService engines = services.engines();
        new DeviceMemoryMetrics(engines).bindTo(meters);
        boolean registered = meters.find("frontier.device.memory.used").gauge() != null;
        assertEquals(engines.gpuEngine().isPresent(), registered, "device gauges registered iff a GPU engine is open");
    }

    @Test
    void freeDeviceMemoryRepeatsTheLastReadingWhileTheDeviceIsBusy() {
        SimpleMeterRegistry r = new SimpleMeterRegistry();
        OptionalLong[] free = {OptionalLong.empty()};
        DeviceMemoryMetrics.register(r, new DeviceMemoryMetrics.DeviceMemory() {
            @Override public long used() { return 300; }
            @Override public OptionalLong free() { return free[0]; }
            @Override public long total() { return 1000; }
        });
        assertTrue(Double.isNaN(r.get("frontier.device.memory.free").gauge().value()), "nothing read yet");
        free[0] = OptionalLong.of(600);
        assertEquals(600.0, r.get("frontier.device.memory.free").gauge().value());
        free[0] = OptionalLong.empty();
        assertEquals(600.0, r.get("frontier.device.memory.free").gauge().value(), "busy: the last reading");
        assertEquals(300.0, r.get("frontier.device.memory.used").gauge().value());
        assertEquals(1000.0, r.get("frontier.device.memory.total").gauge().value());
        r.getMeters().forEach(m -> assertFalse(m.getId().getDescription().isBlank(), m.getId() + " has no description"));
    }

    @Test
    void recordsOfTheGraphsTopicCountedByType() {
        GraphRecordCounter counter = counter();
        TopicPartition graphs = new TopicPartition("frontier.graphs", 0);
        TopicPartition other = new TopicPartition("elsewhere", 0);
        List<ConsumerRecord<Object, Object>> records = List.of(
                new ConsumerRecord<>("frontier.graphs", 0, 0, "g", FrontierCodec.encode(update("g"))),
                new ConsumerRecord<>("frontier.graphs", 0, 1, "g", FrontierCodec.encode(update("g"))),
                new ConsumerRecord<>("frontier.graphs", 0, 2, "g", "not avro".getBytes(StandardCharsets.UTF_8)),
                new ConsumerRecord<>("elsewhere", 0, 0, "g", FrontierCodec.encode(update("g"))));
        ConsumerRecords<Object, Object> batch = new ConsumerRecords<>(Map.of(
                graphs, records.subList(0, 3), other, records.subList(3, 4)));
        assertEquals(batch, counter.onConsume(batch), "records pass through unchanged");
        assertEquals(2.0, meters.get("frontier.records").tag("type", "GraphUpdate").counter().count());
        assertEquals(1.0, meters.get("frontier.records").tag("type", "malformed").counter().count());
    }

    @Test
    void metersWithoutADescriptionGetOne() {
        SimpleMeterRegistry r = new SimpleMeterRegistry();
        r.config().meterFilter(new MissingDescriptions());
        Counter kafka = Counter.builder("kafka.consumer.commit.rate").register(r);
        Counter own = Counter.builder("frontier.x").description("mine").register(r);
        assertTrue(kafka.getId().getDescription().startsWith("Kafka client metric kafka.consumer.commit.rate"));
        assertEquals("mine", own.getId().getDescription());
        assertFalse(MissingDescriptions.describe("executor").isBlank());
    }

    private GraphRecordCounter counter() {
        GraphRecordCounter counter = new GraphRecordCounter();
        counter.configure(Map.of(GraphRecordCounter.REGISTRY, (Supplier<?>) () -> meters,
                GraphRecordCounter.TOPIC, "frontier.graphs"));
        return counter;
    }

    private Map<String, Double> perGraph(String name) {
        return meters.find(name).gauges().stream()
                .collect(Collectors.toMap(g -> g.getId().getTag("graph"), g -> g.value()));
    }

    private static GraphUpdate update(String graphId) {
        return GraphUpdate.newBuilder().setGraphId(graphId).setAdded(weighted(0, 1, 1.0)).build();
    }

    private static LatencyEvent latency(Algorithm algorithm, ResultStatus status, String backend) {
        return LatencyEvent.newBuilder().setQueryId("q").setGraphId("g").setAlgorithm(algorithm).setStatus(status)
                .setBackend(backend).setVertexCount(3).setEdgeCount(2).setQueuedMicros(1).setDecodeMicros(1)
                .setComputeMicros(40).setCopyMicros(0).setEncodeMicros(1).setEndToEndMicros(900)
                .setTimestampMs(1_700_000_000_000L).setPickupMicros(5L).setEngineMicros(45L).setHandOverMicros(60L)
                .setAcknowledgeMicros(300L).build();
    }
}
