package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.junit.jupiter.api.Test;

/**
 * Fault suite (c): 10,000 hostile records (random bytes, truncated and garbage bodies, wrong fingerprints, registry
 * framing, memory-bomb headers, NaN and negative weights, out-of-range ids, keys that differ from the graph id,
 * unknown graphs, snapshots that never complete) against one worker, a real child JVM with a 256 MB heap, with good
 * traffic in between. Each hostile record gets exactly one error event (and a query with an id a failed QueryResult
 * too); the worker never crashes nor restarts its consumer, its heap stays bounded, and every good query is answered
 * OK on the expected version and verified.
 */
class HostileRecordsIT extends FaultTest {
    static final long SEED = 0xFA_0003L;
    static final int PARTITIONS = 3;
    static final int HOSTILE = 10_000;
    static final int HALF_SNAPSHOTS = 20;
    static final long HEAP_GROWTH_LIMIT = 48L << 20;

    /** Where a record landed. */
    record At(int partition, long offset) {}

    @Test
    void everyHostileRecordGetsOneErrorEventAndTheWorkerKeepsAnswering() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("hostile", PARTITIONS);
        worker = WorkerProcess.start("target", bootstrap, dir, "256m", Map.of(
                "frontier.topics.partitions", Integer.toString(PARTITIONS),
                "frontier.pending-snapshot-ttl", "15s")).awaitReady(Duration.ofSeconds(90));

        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            Traffic good = new Traffic(client, "good", 2, 300, SEED);
            good.publishSnapshots();
            Awaitility.await("the good graphs loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> good.graphIds().stream().allMatch(g -> out.loaded(g, 1)));
            good.step();
            Awaitility.await("a first good answer").atMost(Duration.ofSeconds(60)).until(() -> good.allAnswered(out));
            long heapBefore = worker.heapUsedAfterGc();

            // 10,000 hostile records, sent asynchronously, good traffic every 250
            Hostile hostile = new Hostile(SEED, "good-0", 300);
            Hostile.Kind[] kinds = Hostile.Kind.values();
            Map<At, Hostile.Record> sent = new HashMap<>();
            Map<Hostile.Kind, Integer> perKind = new EnumMap<>(Hostile.Kind.class);
            List<Future<RecordMetadata>> pending = new ArrayList<>();
            List<Hostile.Record> inFlight = new ArrayList<>();
            int half = 0;
            for (int i = 0; i < HOSTILE; i++) {
                Hostile.Kind kind = kinds[i % (kinds.length - 1)];
                if (i % (HOSTILE / HALF_SNAPSHOTS) == HOSTILE / HALF_SNAPSHOTS / 2 && half < HALF_SNAPSHOTS) {
                    kind = Hostile.Kind.HALF_SNAPSHOT;
                    half++;
                }
                Hostile.Record r = hostile.make(kind, i);
                perKind.merge(kind, 1, Integer::sum);
                pending.add(raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, r.key(), r.value())));
                inFlight.add(r);
                if (pending.size() == 250 || i == HOSTILE - 1) {
                    for (int k = 0; k < pending.size(); k++) {
                        RecordMetadata m = pending.get(k).get();
                        sent.put(new At(m.partition(), m.offset()), inFlight.get(k));
                    }
                    pending.clear();
                    inFlight.clear();
                    good.step();
                }
            }
            assertEquals(HOSTILE, sent.size());
            long published = System.nanoTime();

            Awaitility.await("one error event for every hostile record").atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> out.errors().stream().filter(e -> sent.containsKey(at(e))).map(HostileRecordsIT::at)
                            .distinct().count() == HOSTILE);
            long answeredAll = System.nanoTime();
            Awaitility.await("every good query answered").atMost(Duration.ofSeconds(60)).until(() -> good.allAnswered(out));
            Awaitility.await("the half snapshots' buffer released").atMost(Duration.ofSeconds(60))
                    .until(() -> pendingSnapshotBytes(worker) == 0);
            long heapAfter = worker.heapUsedAfterGc();

            // exactly one error event each, with a code its kind allows; a failed QueryResult for each query with an id
            Map<At, List<ErrorEvent>> byRecord = out.errors().stream().collect(Collectors.groupingBy(HostileRecordsIT::at));
            Map<String, List<QueryResult>> results = new HashMap<>();
            out.results().forEach(a -> results.computeIfAbsent(a.value().getQueryId(), k -> new ArrayList<>()).add(a.value()));
            List<String> failures = new ArrayList<>();
            Map<String, Integer> codes = new java.util.TreeMap<>();
            int failedResults = 0;
            for (Map.Entry<At, Hostile.Record> e : sent.entrySet()) {
                Hostile.Record r = e.getValue();
                List<ErrorEvent> events = byRecord.getOrDefault(e.getKey(), List.of());
                if (events.size() != 1) {
                    failures.add(r.kind() + " at " + e.getKey() + ": " + events.size() + " error events");
                    continue;
                }
                String code = events.get(0).getCode();
                codes.merge(code, 1, Integer::sum);
                if (!r.kind().accepts(code)) failures.add(r.kind() + " at " + e.getKey() + ": code " + code + " (" + events.get(0).getReason() + ")");
                if (r.kind().answered) {
                    List<QueryResult> answer = results.getOrDefault(r.queryId(), List.of());
                    if (answer.size() != 1 || answer.get(0).getStatus() == ResultStatus.OK || !answer.get(0).getStatus().name().equals(code)) {
                        failures.add(r.kind() + " " + r.queryId() + ": results " + answer.stream().map(QueryResult::getStatus).toList());
                    } else {
                        failedResults++;
                    }
                }
            }
            long strayErrors = out.errors().stream().filter(e -> !sent.containsKey(at(e))).count();
            Traffic.Report report = good.check(out);
            String liveness = worker.httpBody("/health/liveness");
            System.out.printf(Locale.ROOT, "[fault c] %d hostile records: %d with exactly one error event (%s), %d failed "
                            + "QueryResults for hostile queries, %d stray error events; by kind %s%n",
                    HOSTILE, HOSTILE - failures.size(), codes, failedResults, strayErrors, perKind);
            System.out.printf(Locale.ROOT, "[fault c] good traffic in between: %s; heap after GC %.1f MB before, %.1f MB after "
                            + "(limit +%d MB, -Xmx256m); all error events %.1f s after the last record, total %.1f s%n",
                    report, heapBefore / 1e6, heapAfter / 1e6, HEAP_GROWTH_LIMIT >> 20,
                    FaultSupport.seconds(answeredAll - published), FaultSupport.seconds(System.nanoTime() - t0));
            assertTrue(failures.isEmpty(), () -> failures.size() + " hostile records mishandled, e.g. "
                    + failures.subList(0, Math.min(20, failures.size())));
            assertEquals(0, strayErrors, "error events for records that were not hostile");
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertTrue(worker.alive(), "the worker survived");
            assertTrue(liveness.contains("\"restarts\":0") && liveness.contains("\"UP\""), liveness);
            assertTrue(heapAfter - heapBefore < HEAP_GROWTH_LIMIT,
                    () -> "heap grew by " + (heapAfter - heapBefore) / 1e6 + " MB: " + heapBefore + " -> " + heapAfter);
        }
    }

    private static At at(ErrorEvent e) {
        return new At(e.getPartition(), e.getOffset());
    }

    private static long pendingSnapshotBytes(WorkerProcess w) throws Exception {
        for (String line : w.httpBody("/prometheus").lines().toList()) {
            if (line.startsWith("frontier_snapshots_pending_bytes")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no frontier_snapshots_pending_bytes gauge");
    }

    private static KafkaProducer<String, byte[]> rawProducer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
