package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.config.KafkaDefaultConfiguration;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.WorkerStatus;
import org.frontiergraph.schema.codec.Framing;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's {@link FrontierSerde}: {@code frontier.serialization.read} / {@code .write}, and the schema registry
 * named by the Kafka client settings ({@code kafka.schema.registry.url}, {@code kafka.basic.auth.user.info}, or the
 * {@code frontier.kafka-config} file, which {@link KafkaClientSettings} merged into them). With registry framing on
 * output, every output schema is registered at start-up under its topic's subject, so a registry out of reach stops
 * the worker at start rather than its first answer; writing it needs reading it too (the ends of dropped
 * subscriptions go to the graphs topic, which workers read).
 */
@Factory
public class SerializationFactory {
    private static final Logger LOG = LoggerFactory.getLogger(SerializationFactory.class);

    @Singleton
    FrontierSerde serde(FrontierConfig config, TopicsConfig topics, KafkaDefaultConfiguration kafka) {
        FrontierConfig.Serialization s = config.getSerialization();
        FrontierSerde serde = FrontierSerde.of(s.getRead(), s.getWrite(), kafka.getConfig());
        if (serde.write() == Framing.REGISTRY && serde.read() != Framing.REGISTRY) {
            throw new IllegalArgumentException("frontier.serialization.write=registry needs frontier.serialization.read=registry"
                    + " (which reads both framings): workers read back the subscription ends they write to " + topics.getGraphs());
        }
        serde.register(topics.getResults(), QueryResult.getClassSchema());
        serde.register(topics.getErrors(), ErrorEvent.getClassSchema());
        serde.register(topics.getLatency(), LatencyEvent.getClassSchema());
        serde.register(topics.getStatus(), GraphStatus.getClassSchema());
        serde.register(topics.getStatus(), WorkerStatus.getClassSchema());
        serde.register(topics.getGraphs(), Subscription.getClassSchema());   // a subscription's end, when it is dropped
        if (serde != FrontierSerde.singleObject()) {
            LOG.info("Records read as {}, written as {}, schema registry {}", serde.read().setting(), serde.write().setting(),
                    kafka.getConfig().getProperty(FrontierSerde.URL));
        }
        return serde;
    }
}
