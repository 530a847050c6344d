package org.frontiergraph.it;

import java.util.function.BooleanSupplier;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The broker the integration tests run against: the CLI's embedded KRaft broker by default, or a Testcontainers
 * Kafka (apache/kafka 3.9.1) with {@code -Dfrontier.it.kafka=testcontainers}. Asked for Testcontainers where no
 * Docker engine answers, it fails (it does not skip): a run that asked for a containerised broker and silently
 * tested nothing would read as a pass.
 */
final class TestKafka implements AutoCloseable {
    static final String PROPERTY = "frontier.it.kafka";
    static final String KAFKA_IMAGE = "apache/kafka:3.9.1";

    private final AutoCloseable owner;
    private final String bootstrap;

    private TestKafka(AutoCloseable owner, String bootstrap) {
        this.owner = owner;
        this.bootstrap = bootstrap;
    }

    /** The broker {@code -Dfrontier.it.kafka} names: {@code embedded} (default) or {@code testcontainers}. */
    static TestKafka start() {
        return start(System.getProperty(PROPERTY, "embedded"), () -> DockerClientFactory.instance().isDockerAvailable());
    }

    /**
     * @param dockerAvailable asked only for {@code testcontainers}
     * @throws IllegalStateException for Testcontainers without Docker, or a kind that is neither
     */
    static TestKafka start(String kind, BooleanSupplier dockerAvailable) {
        switch (kind) {
            case "testcontainers" -> {
                if (!dockerAvailable.getAsBoolean()) {
                    throw new IllegalStateException("-D" + PROPERTY + "=testcontainers asks for a Kafka container, but no "
                            + "Docker engine answers (DOCKER_HOST, /var/run/docker.sock; `docker info` shows why): start "
                            + "Docker, or drop -D" + PROPERTY + " to test against the embedded broker");
                }
                KafkaContainer kafka = new KafkaContainer(KAFKA_IMAGE);
                kafka.start();
                return new TestKafka(kafka::stop, kafka.getBootstrapServers());
            }
            case "embedded" -> {
                EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary();
                return new TestKafka(broker, broker.bootstrapServers());
            }
            default -> throw new IllegalStateException("-D" + PROPERTY + "=" + kind + ": expected embedded or testcontainers");
        }
    }

    String bootstrapServers() { return bootstrap; }

    @Override
    public void close() throws Exception {
        owner.close();
    }
}
