package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A unit test (surefire, no broker): asking for Testcontainers without Docker fails the run instead of skipping it,
 * and a misspelt kind is not taken for the embedded broker. On a machine with Docker, {@code
 * -Dfrontier.it.kafka=testcontainers} runs the ITs against a container; where Docker answers, this test still checks
 * the refusal (the engine's presence is given, not probed).
 */
class TestKafkaTest {
    @Test
    void testcontainersWithoutDockerFails() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestKafka.start("testcontainers", () -> false));
        assertTrue(e.getMessage().startsWith("-Dfrontier.it.kafka=testcontainers asks for a Kafka container, but no Docker engine answers"),
                e.getMessage());
    }

    @Test
    void anUnknownKindFails() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestKafka.start("testcontainer", () -> {
            throw new AssertionError("Docker is not asked about for an unknown kind");
        }));
        assertTrue(e.getMessage().contains("expected embedded or testcontainers"), e.getMessage());
    }
}
