package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.configuration.kafka.config.AbstractKafkaConsumerConfiguration;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.config.TopicsConfig;

/**
 * Adds {@link GraphRecordCounter} to the worker's Kafka consumers (the way micronaut-kafka adds its metrics reporter):
 * each consumer configuration gets the interceptor, the meter registry and the graphs topic's name.
 */
@Singleton
public class RecordCountingConsumers implements BeanCreatedEventListener<AbstractKafkaConsumerConfiguration<?, ?>> {
    private final BeanProvider<MeterRegistry> meters;
    private final BeanProvider<TopicsConfig> topics;
    private final BeanProvider<FrontierSerde> serde;

    public RecordCountingConsumers(BeanProvider<MeterRegistry> meters, BeanProvider<TopicsConfig> topics,
                                   BeanProvider<FrontierSerde> serde) {
        this.meters = meters;
        this.topics = topics;
        this.serde = serde;
    }

    @Override
    public AbstractKafkaConsumerConfiguration<?, ?> onCreated(BeanCreatedEvent<AbstractKafkaConsumerConfiguration<?, ?>> event) {
        Properties config = event.getBean().getConfig();
        Object existing = config.get(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG);
        String counter = GraphRecordCounter.class.getName();
        config.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG,
                existing == null || existing.toString().isBlank() ? counter : existing + "," + counter);
        config.put(GraphRecordCounter.REGISTRY, (Supplier<MeterRegistry>) meters::get);
        config.put(GraphRecordCounter.TOPIC, topics.get().getGraphs());
        config.put(GraphRecordCounter.SERDE, (Supplier<FrontierSerde>) serde::get);
        return event.getBean();
    }
}
