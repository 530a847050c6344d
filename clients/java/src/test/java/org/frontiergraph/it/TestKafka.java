package org.frontiergraph.it;

import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The broker the integration tests run against: the CLI's embedded KRaft broker by default, or a
 * Testcontainers Kafka (apache/kafka 3.9.1) with {@code -Dfrontier.it.kafka=testcontainers}, skipped cleanly
 * where no Docker engine is present.
 */
final class TestKafka implements AutoCloseable {
    private final AutoCloseable owner;
    private final String bootstrap;

    private TestKafka(AutoCloseable owner, String bootstrap) {
        this.owner = owner;
        this.bootstrap = bootstrap;
    }

    static TestKafka start() {
        String kind = System.getProperty("frontier.it.kafka", "embedded");
        if (kind.equals("testcontainers")) {
            Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                    "frontier.it.kafka=testcontainers but no Docker engine is available: skipped");
            KafkaContainer kafka = new KafkaContainer("apache/kafka:3.9.1");
            kafka.start();
            return new TestKafka(kafka::stop, kafka.getBootstrapServers());
        }
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary();
        return new TestKafka(broker, broker.bootstrapServers());
    }

    String bootstrapServers() { return bootstrap; }

    @Override
    public void close() throws Exception {
        owner.close();
    }
}
