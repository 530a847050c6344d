package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.schema.codec.Framing;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.junit.jupiter.api.Test;

/**
 * The worker's framing from its settings (frontier.serialization.*, the registry among the Kafka settings), and the
 * combinations it refuses at start. Registry framing itself: cli's RegistryFramingIT, against a real registry.
 */
class SerializationFactoryTest {
    @Test
    void singleObjectUnlessConfigured() {
        try (ApplicationContext ctx = worker(Map.of(), Map.of())) {
            assertSame(FrontierSerde.singleObject(), ctx.getBean(FrontierSerde.class));
        }
    }

    @Test
    void environmentVariablesNameTheFramingAndTheRegistry() {
        // reading registry framing calls the registry only for a registry-framed record: none here
        try (ApplicationContext ctx = worker(Map.of("FRONTIER_SERIALIZATION_READ", "registry",
                "KAFKA_SCHEMA_REGISTRY_URL", "http://127.0.0.1:1"), Map.of())) {
            FrontierSerde serde = ctx.getBean(FrontierSerde.class);
            assertEquals(Framing.REGISTRY, serde.read());
            assertEquals(Framing.SINGLE_OBJECT, serde.write());
        }
    }

    @Test
    void writingRegistryFramingNeedsReadingItAndARegistry() {
        // the worker does not start: the message says why
        String why = causes(assertThrows(RuntimeException.class, () -> worker(Map.of(), Map.of(
                "frontier.serialization.write", "registry", "kafka.schema.registry.url", "http://127.0.0.1:1")).close()));
        assertTrue(why.contains("frontier.serialization.write=registry needs frontier.serialization.read=registry"), why);
        String noUrl = causes(assertThrows(RuntimeException.class,
                () -> worker(Map.of(), Map.of("frontier.serialization.read", "registry")).close()));
        assertTrue(noUrl.contains("schema.registry.url"), noUrl);
    }

    /** The worker's context on an unreachable cluster (as KafkaClientSettingsTest's), topics not created. */
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
