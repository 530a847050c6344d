package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.assertVerified;
import static org.frontiergraph.it.Pipeline.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.it.fault.WorkerProcess;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.TopicAdmin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured cluster as an operations team runs one: a broker whose only listener takes SASL_SSL logins (SCRAM-SHA-512)
 * and whose authorizer allows nothing no ACL grants. The operator (a super user) creates Frontier's topics, the
 * worker's and the pipeline's users and their ACLs (docs/operations.md, "Secured clusters", lists them); the worker's
 * principal may not create topics.
 *
 * <p>A worker process gets its settings as a deployment would: the non-secret ones as environment variables
 * (KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_MECHANISM, KAFKA_SSL_TRUSTSTORE_*), its login in a client properties file
 * (FRONTIER_KAFKA_CONFIG, a mounted Secret). It serves a query of the pipeline's client, verified; a client with a
 * wrong password is refused at login, one logged in without ACLs is refused on produce and on consume; stopped, the
 * worker leaves the group through its admin client, which logs in too.
 */
class SecuredClusterIT {
    static final long SEED = 12;
    static final int PARTITIONS = 2;
    static final String GROUP = "frontier-workers";
    static final String WORKER = "frontier-worker", PIPELINE = "pipeline", STRANGER = "stranger";
    static final String WORKER_PASSWORD = "worker-secret", PIPELINE_PASSWORD = "pipeline-secret", STRANGER_PASSWORD = "stranger-secret";

    @TempDir
    Path dir;

    @Test
    void theWorkerServesWithItsCredentialsAndClientsWithoutRightsAreRefused() throws Exception {
        long t0 = System.nanoTime();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startSecured("frontier-admin", true)) {
            TopicsConfig topics = new TopicsConfig();
            topics.setPartitions(PARTITIONS);
            operatorSetsUp(broker, topics);
            long setUp = System.nanoTime();

            EmbeddedKafkaBroker.Security tls = broker.security();
            Properties workerLogin = broker.clientSettings(WORKER, WORKER_PASSWORD);
            Path workerFile = write(dir.resolve("worker-kafka.properties"), workerLogin, "sasl.jaas.config");
            Map<String, String> env = Map.of(
                    "FRONTIER_KAFKA_CONFIG", workerFile.toString(),
                    "KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
                    "KAFKA_SASL_MECHANISM", EmbeddedKafkaBroker.SCRAM,
                    "KAFKA_SSL_TRUSTSTORE_TYPE", "PEM",
                    "KAFKA_SSL_TRUSTSTORE_LOCATION", tls.caCertificate().toString());
            Path pipelineFile = write(dir.resolve("pipeline-kafka.properties"),
                    broker.clientSettings(PIPELINE, PIPELINE_PASSWORD), null);

            try (WorkerProcess worker = WorkerProcess.start(WORKER, broker.bootstrapServers(), dir.resolve("worker"), "256m",
                    Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS)), env);
                 FrontierClient client = new FrontierClient(FrontierClient.kafka(pipelineFile, null), FrontierClient.Topics.defaults())) {
                worker.awaitReady(Duration.ofSeconds(60));
                long ready = System.nanoTime();
                String metrics = httpBody(worker, "/prometheus");
                for (int p = 0; p < PARTITIONS; p++) {
                    assertTrue(metrics.contains("frontier_rebuild_remaining_offsets{partition=\"" + p + "\"} 0.0"),
                            "ready: nothing left to replay in partition " + p);
                }

                EdgeList edges = UniformRandomGraph.generate(500, 2_500, SEED, 20, true);
                CsrGraph graph = GraphBuilder.build(edges);
                GraphQuery q = query("secured", Algorithm.SSSP, 7);
                try (TopicWatcher<GraphStatus> status = client.watchStatus();
                     TopicWatcher<QueryResult> results = client.watchResults()) {
                    client.publishSnapshot("secured", 1, Snapshots.of(edges), 0, true, null);
                    awaitLoaded(status, "secured", 1);
                    client.publishQuery(q);
                    assertVerified(await(results, q.getQueryId()), graph, 1);   // status OK, version 1, distances verified

                    // a subscription the worker ends for an error: its end record goes to the graphs topic (Write, as
                    // docs/operations.md grants); then without that ACL: the record is refused, replaced by an
                    // OUTPUT_REFUSED error event, never retried, and the next query is answered once
                    try (TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
                        endsOnce(client, results, errors, "ends-granted", 7, graph);
                        try (Admin admin = broker.admin()) {
                            admin.deleteAcls(List.of(new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, topics.getGraphs(),
                                    PatternType.LITERAL), new AccessControlEntryFilter("User:" + WORKER, null, AclOperation.WRITE,
                                    AclPermissionType.ANY)))).all().get(30, TimeUnit.SECONDS);
                        }
                        endsOnce(client, results, errors, "ends-refused", 8, graph);
                        assertEquals(1, errors.awaitUntil(l -> l.stream().anyMatch(e -> e.getCode().equals("OUTPUT_REFUSED")), Duration.ofSeconds(30))
                                .stream().filter(e -> e.getCode().equals("OUTPUT_REFUSED") && "ends-refused".equals(e.getQueryId())).count(),
                                "one OUTPUT_REFUSED event for the end record the worker may not write");
                    }
                }
                assertFalse(worker.log().contains("publishing outputs failed"), () -> "a refused write was retried:\n" + worker.tail());
                long answered = System.nanoTime();
                assertEquals(200, worker.httpStatus("/health"), () -> "the worker's broker health check logs in too: "
                        + httpBody(worker, "/health"));

                Properties wrongPassword = broker.clientSettings(PIPELINE, "not-the-password");
                assertRefused(SaslAuthenticationException.class, () -> publishOne(wrongPassword), "a wrong password, producing");
                assertRefused(SaslAuthenticationException.class, () -> watchResults(wrongPassword), "a wrong password, consuming");
                Properties stranger = broker.clientSettings(STRANGER, STRANGER_PASSWORD);
                assertRefused(TopicAuthorizationException.class, () -> publishOne(stranger), "no ACL, producing");
                assertRefused(TopicAuthorizationException.class, () -> watchResults(stranger), "no ACL, consuming");
                long refused = System.nanoTime();

                Duration stop = worker.terminate(Duration.ofSeconds(30));
                assertNotNull(stop, () -> "the worker did not stop:\n" + worker.tail());
                assertTrue(worker.log().contains("left group '" + GROUP + "' (static member '" + WORKER + "')"),
                        () -> "the worker's admin client did not remove it from the group:\n" + worker.tail());
                try (Admin admin = broker.admin()) {
                    assertEquals(List.of(), admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS)
                            .get(GROUP).members().stream().map(m -> m.consumerId()).toList(), "members left in the group");
                }
                System.out.printf("[secured] broker (SASL_SSL, keytool certificate) + users + ACLs %.1f s, worker ready %.1f s, "
                                + "query answered %.1f s, refusals %.1f s, worker stopped in %d ms%n",
                        seconds(setUp - t0), seconds(ready - setUp), seconds(answered - ready), seconds(refused - answered),
                        stop.toMillis());
            }
        }
    }

    /**
     * What the operator does before the first worker starts: Frontier's topics, with the settings a worker would
     * create them with; three users; the ACLs of the worker (read the graphs topic, write the outputs, read and write its checkpoints, its group) and
     * of the pipeline (write the graphs topic, read the outputs). The stranger gets none.
     */
    private static void operatorSetsUp(EmbeddedKafkaBroker broker, TopicsConfig topics) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(TopicAdmin.topicsToCreate(topics)).all().get(30, TimeUnit.SECONDS);
        }
        broker.createUser(WORKER, WORKER_PASSWORD);
        broker.createUser(PIPELINE, PIPELINE_PASSWORD);
        broker.createUser(STRANGER, STRANGER_PASSWORD);
        List<String> outputs = List.of(topics.getResults(), topics.getLatency(), topics.getErrors(), topics.getStatus());
        broker.allow(WORKER, topic(topics.getGraphs()), AclOperation.READ);
        broker.allow(WORKER, new ResourcePattern(ResourceType.GROUP, GROUP, PatternType.LITERAL), AclOperation.READ);
        broker.allow(WORKER, new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                AclOperation.DESCRIBE_CONFIGS);   // the broker health check (part of readiness) reads the broker's settings
        broker.allow(WORKER, topic(topics.getGraphs()), AclOperation.WRITE);   // the end records of subscriptions it ends
        broker.allow(PIPELINE, topic(topics.getGraphs()), AclOperation.WRITE);
        broker.allow(WORKER, topic(topics.getCheckpoints()), AclOperation.READ);   // its graphs' checkpoints
        broker.allow(WORKER, topic(topics.getCheckpoints()), AclOperation.WRITE);
        for (String output : outputs) {
            broker.allow(WORKER, topic(output), AclOperation.WRITE);
            broker.allow(PIPELINE, topic(output), AclOperation.READ);
        }
    }

    /**
     * A subscription from a vertex the graph does not have: one END push (INVALID_VERTEX), and a query published after it
     * answered exactly once, verified (a worker that retried its outputs would answer it again).
     */
    private static void endsOnce(FrontierClient client, TopicWatcher<QueryResult> results, TopicWatcher<ErrorEvent> errors, String id,
                                 int source, CsrGraph graph) throws InterruptedException {
        client.publishSubscription(Subscription.newBuilder().setSubscriptionId(id).setGraphId("secured").setAlgorithm(Algorithm.SSSP)
                .setSource(1_000_000).build());
        GraphQuery after = query("secured", Algorithm.SSSP, source);
        client.publishQuery(after);
        assertVerified(await(results, after.getQueryId()), graph, 1);
        Thread.sleep(2_000);   // a worker that loops would have pushed and answered again by now
        List<QueryResult> seen = results.awaitUntil(l -> false, Duration.ofMillis(100));
        assertEquals(1, seen.stream().filter(r -> r.getQueryId().equals(id) && r.getReason() == PushReason.END
                && r.getStatus() == ResultStatus.INVALID_VERTEX).count(), id + ": one END push");
        assertEquals(1, seen.stream().filter(r -> r.getQueryId().equals(after.getQueryId())).count(), "the query after it answered once");
    }

    private static ResourcePattern topic(String name) {
        return new ResourcePattern(ResourceType.TOPIC, name, PatternType.LITERAL);
    }

    private static void publishOne(Properties kafka) {
        try (FrontierClient c = new FrontierClient(kafka, FrontierClient.Topics.defaults())) {
            c.publishQuery(query("secured", Algorithm.BFS, 0));
        }
    }

    private static void watchResults(Properties kafka) {
        try (FrontierClient c = new FrontierClient(kafka, FrontierClient.Topics.defaults());
             TopicWatcher<QueryResult> results = c.watchResults()) {
            results.awaitUntil(l -> !l.isEmpty(), Duration.ofSeconds(5));
        }
    }

    /** The action fails, and the Kafka exception {@code expected} is among the causes. */
    private static void assertRefused(Class<? extends Exception> expected, Runnable action, String what) {
        Throwable t = assertThrows(Throwable.class, action::run, what + ": not refused");
        for (Throwable c = t; c != null; c = c.getCause()) if (expected.isInstance(c)) return;
        throw new AssertionError(what + ": refused, but not with " + expected.getSimpleName(), t);
    }

    /**
     * Writes Kafka client settings as a properties file; with {@code only}, that key alone (the rest comes from
     * environment variables).
     */
    private static Path write(Path file, Properties settings, String only) throws IOException {
        Properties p = new Properties();
        if (only == null) p.putAll(settings);
        else p.put(only, settings.getProperty(only));
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, null);
        }
        return file;
    }

    private static String httpBody(WorkerProcess worker, String path) {
        try {
            return worker.httpBody(path);
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
