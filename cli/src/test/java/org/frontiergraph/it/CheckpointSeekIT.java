package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.frontiergraph.worker.kafka.TopicAdmin;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.junit.jupiter.api.Test;

/**
 * Issue 29, bounded recovery: a rebuild reads the checkpoint topic only from where the checkpoints the last commit
 * relied on start. A real (embedded) broker and workers in this JVM (CPU engine): two graphs of one partition are
 * checkpointed several times, so the compacted topic still holds their previous checkpoints; the group's commit names
 * where the newest start ({@code checkpointFrom=M;checkpoints=2}); a new owner reads from there, fewer bytes than a
 * read from the beginning, and installs the graphs and versions the old owner held. With the commit's hint made wrong
 * (past the end of the checkpoint topic, inside a checkpoint, naming more graphs, malformed) or absent (an older
 * commit) the new owner reads from the beginning and installs the same.
 */
class CheckpointSeekIT {
    static final long SEED = 0x29_0045L;
    static final TopicPartition P0 = new TopicPartition("frontier.graphs", 0);
    static final TopicPartition CHECKPOINTS = new TopicPartition("frontier.checkpoints", 0);
    static final String GROUP = "frontier-workers";
    static final List<String> GRAPHS = List.of("g", "h");

    /** A graph as a worker holds it. */
    record Held(long version, int[] rows, int[] columns, double[] weights) {
        static Held of(GraphEntry e) {
            CsrGraph g = e.resident().graph();
            return new Held(e.version(), g.rowOffsets(), g.columns(), g.weights());
        }

        void assertSame(Held got, String what) {
            assertEquals(version, got.version, what + ": version");
            assertArrayEquals(rows, got.rows, what);
            assertArrayEquals(columns, got.columns, what);
            assertArrayEquals(weights, got.weights, what);
        }
    }

    private static Map<String, Object> settings(String id) {
        return Map.of("frontier.backend", "cpu", "micronaut.server.port", -1, "frontier.topics.partitions", 1,
                "frontier.worker-id", id, "frontier.checkpoints.enabled", true, "frontier.checkpoints.updates", 100,
                "frontier.checkpoints.interval", "2s");
    }

    @Test
    void aNewOwnerReadsTheCheckpointTopicFromWhereTheCommitsCheckpointsStart() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary()) {
            String bootstrap = broker.bootstrapServers();
            TopicsConfig topics = new TopicsConfig();
            topics.setPartitions(1);
            try (Admin admin = admin(bootstrap)) {
                admin.createTopics(TopicAdmin.topicsToCreate(topics)).all().get(30, TimeUnit.SECONDS);
            }
            Map<String, Held> held = new HashMap<>();
            try (FrontierWorker w1 = FrontierWorker.start(bootstrap, settings("seek-1"));
                 FrontierClient client = new FrontierClient(bootstrap); KafkaProducer<String, byte[]> raw = producer(bootstrap)) {
                GraphRegistry registry = w1.context().getBean(GraphRegistry.class);
                await("the first worker ready", () -> w1.context().getBean(GraphConsumer.class).status().ready());
                Map<String, EdgeList> edges = Map.of("g", UniformRandomGraph.generate(3_000, 12_000, SEED, 100, false),
                        "h", UniformRandomGraph.generate(2_000, 8_000, SEED + 1, 100, true));
                for (String id : GRAPHS) client.publishSnapshot(id, 1, Snapshots.of(edges.get(id)), 0, true, n -> {});
                await("both graphs loaded", () -> GRAPHS.stream().allMatch(id -> registry.get(id).isPresent()));
                Random random = new Random(SEED);
                for (int round = 0; round < 4; round++) {   // a checkpoint of each graph every 100 updates
                    for (String id : GRAPHS) {
                        EdgeList e = edges.get(id);
                        for (int i = 0; i < 150; i++) {
                            int k = random.nextInt(e.size());
                            GraphUpdate u = GraphUpdate.newBuilder().setGraphId(id).setUpdateId(id + "-" + round + "-" + i)
                                    .setReweighted(PackedArrays.edgeBatch(new int[] {e.source(k)}, new int[] {e.target(k)},
                                            new double[] {1 + random.nextInt(100)})).build();
                            raw.send(new ProducerRecord<>(P0.topic(), id, FrontierCodec.encode(u)));
                        }
                    }
                    raw.flush();
                    long end = endOffset(bootstrap, P0);
                    await("round " + round + " committed", () -> committed(bootstrap).offset() == end);
                }
                long end = endOffset(bootstrap, P0);
                java.util.concurrent.atomic.AtomicReference<String> last = new java.util.concurrent.atomic.AtomicReference<>();
                try {
                    await("a commit relying on both graphs' checkpoints, needing nothing before the end", () -> {
                        last.set(committed(bootstrap).metadata());
                        return last.get().startsWith("rebuildFrom=" + end + ";") && last.get().endsWith(";checkpoints=2");
                    });
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError("the last commit's metadata: " + last.get() + ", the log's end " + end, e);
                }
                for (String id : GRAPHS) held.put(id, Held.of(registry.get(id).orElseThrow()));
                assertTrue(held.get("g").version() > 100 && held.get("h").version() > 100, held.toString());
            }
            OffsetAndMetadata commit = committed(bootstrap);
            String rebuildFrom = commit.metadata().split(";")[0];
            long hint = Long.parseLong(commit.metadata().split(";")[1].substring("checkpointFrom=".length()));
            assertTrue(hint > 0, "the previous checkpoints lie before the newest: " + commit.metadata());

            Checkpointer.RestoreTimes hinted = rebuild(bootstrap, "seek-2", held);
            assertEquals(hint, hinted.readFrom(), "read from where the commit's checkpoints start");
            assertEquals(2, hinted.graphs());

            long checkpointEnd = endOffset(bootstrap, CHECKPOINTS);
            Map<String, String> wrong = new java.util.LinkedHashMap<>();
            wrong.put("past the end", rebuildFrom + ";checkpointFrom=" + (checkpointEnd + 1_000) + ";checkpoints=2");
            wrong.put("inside a checkpoint", rebuildFrom + ";checkpointFrom=" + (hint + 1) + ";checkpoints=2");
            wrong.put("more graphs", rebuildFrom + ";checkpointFrom=" + hint + ";checkpoints=3");
            wrong.put("malformed", rebuildFrom + ";checkpointFrom=x;checkpoints=2");
            wrong.put("an older commit", rebuildFrom);
            int n = 3;
            for (Map.Entry<String, String> w : wrong.entrySet()) {
                recommit(bootstrap, new OffsetAndMetadata(commit.offset(), w.getValue()));
                Checkpointer.RestoreTimes whole = rebuild(bootstrap, "seek-" + n++, held);
                assertEquals(-1, whole.readFrom(), w.getKey() + ": read from the beginning");
                assertTrue(whole.bytes() > hinted.bytes(), w.getKey() + ": " + whole.bytes() + " bytes from the beginning, "
                        + hinted.bytes() + " from the hint");
                assertEquals(2, whole.graphs(), w.getKey());
            }
            System.out.printf("[checkpoint seek] the commit's hint: %,d records and %,d bytes read; from the beginning: more%n",
                    hinted.records(), hinted.bytes());
        }
    }

    /** A new owner of the partition rebuilds it: the graphs it installs are those {@code held}; its restore's stages. */
    private static Checkpointer.RestoreTimes rebuild(String bootstrap, String id, Map<String, Held> held) {
        try (FrontierWorker w = FrontierWorker.start(bootstrap, settings(id))) {
            await(id + " ready", () -> w.context().getBean(GraphConsumer.class).status().ready());
            GraphRegistry registry = w.context().getBean(GraphRegistry.class);
            for (String g : GRAPHS) held.get(g).assertSame(Held.of(registry.get(g).orElseThrow()), id + ", graph " + g);
            return w.context().getBean(Checkpointer.class).lastRestore().orElseThrow();
        }
    }

    /** Replaces the group's commit (the group is empty: its last member closed). */
    private static void recommit(String bootstrap, OffsetAndMetadata c) {
        await("the commit replaced", () -> {
            try (Admin admin = admin(bootstrap)) {
                admin.alterConsumerGroupOffsets(GROUP, Map.of(P0, c)).all().get(30, TimeUnit.SECONDS);
                return true;
            } catch (java.util.concurrent.ExecutionException e) {
                return false;   // the last member not gone yet
            }
        });
    }

    private interface Check {
        boolean done() throws Exception;
    }

    private static void await(String what, Check c) {
        Awaitility.await(what).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(c::done);
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static long endOffset(String bootstrap, TopicPartition tp) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS).get(tp).offset();
        }
    }

    private static OffsetAndMetadata committed(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            OffsetAndMetadata c = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(P0);
            return c == null ? new OffsetAndMetadata(-1, "") : c;
        }
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
