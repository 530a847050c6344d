package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.configuration.kafka.config.KafkaDefaultConfiguration;
import io.micronaut.configuration.kafka.config.KafkaProducerConfiguration;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import io.micronaut.inject.qualifiers.Qualifiers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Kafka client the worker creates (the graphs consumer, the output producer, the admin clients of topic
 * creation, of leaving the group and of the health check) carries the cluster's security settings, whether they come
 * from environment variables or from a client properties file; a setting given explicitly wins over the file. The
 * worker's own Micronaut context, started on an unreachable cluster: the clients are configured, not connected.
 */
class KafkaClientSettingsTest {
    static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"frontier-worker\" password=\"worker-secret\";";
    static final Map<String, String> SECURITY = Map.of(
            "security.protocol", "SASL_PLAINTEXT",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", JAAS);

    @TempDir
    Path dir;

    @Test
    void environmentVariablesReachEveryClientUnderKafkasOwnNames() {
        Map<String, Object> env = Map.of("KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT", "KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
                "KAFKA_SASL_JAAS_CONFIG", JAAS, "KAFKA_SASL_LOGIN_RETRY_BACKOFF_MS", "250");
        try (ApplicationContext ctx = worker(env, Map.of())) {
            Map<String, Properties> clients = clients(ctx);
            clients.forEach((client, settings) -> {
                SECURITY.forEach((k, v) -> assertEquals(v, settings.getProperty(k), client + ": " + k));
                assertEquals("250", settings.getProperty("sasl.login.retry.backoff.ms"), client);
                assertTrue(settings.stringPropertyNames().stream().noneMatch(k -> k.contains("-") && env.containsKey(
                                "KAFKA_" + k.replace('-', '_').replace('.', '_').toUpperCase(Locale.ROOT))),
                        () -> client + " got Micronaut's other spellings of the variables: " + settings.stringPropertyNames());
            });
        }
    }

    @Test
    void aClientPropertiesFileReachesEveryClientAndExplicitSettingsWin() throws IOException {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, """
                # as for kafka-console-consumer --consumer.config (with SASL_SSL, the clients would load the truststore)
                bootstrap.servers=elsewhere:9093
                security.protocol=SASL_PLAINTEXT
                sasl.mechanism=SCRAM-SHA-512
                sasl.jaas.config=%s
                ssl.truststore.location=/etc/frontier/kafka-truststore.p12
                ssl.truststore.type=PKCS12
                ssl.endpoint.identification.algorithm=https
                """.formatted(JAAS));
        Map<String, Object> env = Map.of("FRONTIER_KAFKA_CONFIG", file.toString(), "KAFKA_SASL_MECHANISM", "SCRAM-SHA-256");
        try (ApplicationContext ctx = worker(env, Map.of())) {
            clients(ctx).forEach((client, settings) -> {
                assertEquals("SASL_PLAINTEXT", settings.getProperty("security.protocol"), client);
                assertEquals(JAAS, settings.getProperty("sasl.jaas.config"), client);
                assertEquals("/etc/frontier/kafka-truststore.p12", settings.getProperty("ssl.truststore.location"), client);
                assertEquals("PKCS12", settings.getProperty("ssl.truststore.type"), client);
                assertEquals("SCRAM-SHA-256", settings.getProperty("sasl.mechanism"), client + ": the variable wins");
                assertEquals("localhost:1", settings.getProperty("bootstrap.servers"), client + ": kafka.bootstrap.servers wins");
            });
        }
    }

    /**
     * Micronaut's own place for consumer-only settings, {@code kafka.consumers.default.*}, reaches the graphs consumer
     * (with the cluster's settings under it), and does not stop the worker: with it set, micronaut-kafka offers its
     * default consumer configuration under another type.
     */
    @Test
    void micronautsDefaultConsumerSettingsReachTheGraphsConsumer() {
        Map<String, Object> props = Map.of("kafka.consumers.default.client.rack", "rack-7",
                "kafka.reconnect.backoff.ms", "77");
        try (ApplicationContext ctx = worker(Map.of(), props)) {
            Properties consumer = ctx.getBean(GraphConsumer.class).consumerProperties();
            assertEquals("rack-7", consumer.getProperty("client.rack"));
            assertEquals("77", consumer.getProperty("reconnect.backoff.ms"));
        }
        try (ApplicationContext ctx = worker(Map.of(), Map.of())) {   // and without it, as before
            Properties consumer = ctx.getBean(GraphConsumer.class).consumerProperties();
            assertEquals(null, consumer.getProperty("client.rack"));
            // application.yml's fetch sizes for a backlog of small updates, and the poll that takes them
            assertEquals("8388608", String.valueOf(consumer.get("max.partition.fetch.bytes")));
            assertEquals("67108864", String.valueOf(consumer.get("fetch.max.bytes")));
            assertEquals("10000", consumer.getProperty("max.poll.records"));
        }
        try (ApplicationContext ctx = worker(Map.of(), Map.of("kafka.consumers.default.max.partition.fetch.bytes", "1048576"))) {
            assertEquals("1048576", String.valueOf(ctx.getBean(GraphConsumer.class).consumerProperties().get("max.partition.fetch.bytes")),
                    "an operator's setting wins over application.yml's");
        }
    }

    @Test
    void aMissingFileStopsTheWorkerWithItsName() {
        Path missing = dir.resolve("nowhere.properties");
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> worker(Map.of(), Map.of("frontier.kafka-config", missing.toString())).close());
        assertTrue(causes(e).contains(missing.toString()), causes(e));
    }

    @Test
    void anAdminClientGetsTheSettingsItKnowsAndEverySecuritySetting() {
        Properties kafka = new Properties();
        kafka.putAll(SECURITY);
        kafka.put("bootstrap.servers", "b:9092");
        kafka.put("sasl.oauthbearer.custom.option", "x");   // a login module's own key
        kafka.put("max.poll.records", "10");                // a consumer's
        Properties admin = KafkaClientSettings.forClient(kafka, Set.of("bootstrap.servers"));
        assertEquals(Set.of("bootstrap.servers", "security.protocol", "sasl.mechanism", "sasl.jaas.config",
                "sasl.oauthbearer.custom.option"), admin.stringPropertyNames());
    }

    @Test
    void onlyTheEnvironmentsOtherSpellingsAreDropped() {
        Properties p = new Properties();
        p.put("sasl.jaas.config", "a");
        p.put("sasl-jaas-config", "a");
        p.put("sasl.jaas-config", "a");
        p.put("my-reporter.key", "b");   // no dotted twin: a key of its own
        p.put("x-y", "c");
        p.put("x.y", "d");               // a different value: both kept
        KafkaClientSettings.dropEnvironmentSpellings(p);
        assertEquals(Set.of("sasl.jaas.config", "my-reporter.key", "x-y", "x.y"), p.stringPropertyNames());
    }

    @Test
    void kafkasOwnSettingNamesHaveNoHyphen() {   // what dropEnvironmentSpellings relies on
        assertFalse(ConsumerConfig.configNames().stream().anyMatch(k -> k.contains("-")));
        assertFalse(ProducerConfig.configNames().stream().anyMatch(k -> k.contains("-")));
        assertFalse(AdminClientConfig.configNames().stream().anyMatch(k -> k.contains("-")));
    }

    /** The settings each of the worker's Kafka clients is created with. */
    private static Map<String, Properties> clients(ApplicationContext ctx) {
        Map<String, Properties> clients = new LinkedHashMap<>();
        clients.put("graphs consumer", ctx.getBean(GraphConsumer.class).consumerProperties());
        clients.put("output producer", ctx.getBean(KafkaProducerConfiguration.class, Qualifiers.byName("frontier-output")).getConfig());
        clients.put("admin (topics, leaving the group)", ctx.getBean(KafkaClientSettings.class).admin());
        clients.put("health check's admin", ctx.getBean(KafkaDefaultConfiguration.class).getConfig());
        return clients;
    }

    /**
     * The worker's context on an unreachable cluster, with these environment variables (Micronaut's convention:
     * KAFKA_SASL_MECHANISM is kafka.sasl.mechanism) and properties; topics are not created.
     */
    private static ApplicationContext worker(Map<String, Object> env, Map<String, Object> properties) {
        Map<String, Object> props = new HashMap<>(properties);
        props.put("kafka.bootstrap.servers", "localhost:1");
        props.put("frontier.backend", "cpu");
        props.put("frontier.topics.create", false);
        props.put("micronaut.server.port", -1);
        return ApplicationContext.builder().banner(false).properties(props)
                .propertySources(PropertySource.of("test-env", env, PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE))
                .start();
    }

    private static String causes(Throwable t) {
        StringBuilder s = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) s.append(c.getMessage()).append('\n');
        return s.toString();
    }

}
