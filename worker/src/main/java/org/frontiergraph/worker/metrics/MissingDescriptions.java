package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.inject.Singleton;

/**
 * Gives a description (Prometheus' HELP) to the meters whose source gives none: many Kafka client metrics and
 * Micronaut's executor meters. Frontier's own meters all carry their own. Micronaut applies every {@link MeterFilter}
 * bean to the registry before any meter is registered.
 */
@Singleton
public class MissingDescriptions implements MeterFilter {
    @Override
    public Meter.Id map(Meter.Id id) {
        String description = id.getDescription();
        if (description != null && !description.isBlank()) return id;
        return new Meter.Id(id.getName(), io.micrometer.core.instrument.Tags.of(id.getTagsAsIterable()), id.getBaseUnit(),
                describe(id.getName()), id.getType());
    }

    /** A description from the name: what the meter is and where its meaning is documented. */
    static String describe(String name) {
        if (name.startsWith("kafka.")) {
            return "Kafka client metric " + name + " (the client gives no description; see Kafka's monitoring documentation)";
        }
        return "Metric " + name + " (its source gives no description)";
    }
}
