package org.frontiergraph.worker.health;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.reactivestreams.Publisher;

/**
 * Readiness ({@code /health/readiness}, and {@code /health}): UP once the consumer group has assigned this worker
 * its partitions (none is an answer too) and the graphs of every one were rebuilt from the log; DOWN while it
 * starts, rebuilds, restarts its consumer or stops.
 */
@Singleton
public class PartitionsRebuiltIndicator implements HealthIndicator {
    static final String NAME = "frontier-partitions";

    private final GraphConsumer consumer;

    public PartitionsRebuiltIndicator(GraphConsumer consumer) {
        this.consumer = consumer;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        GraphConsumer.Status s = consumer.status();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("state", s.state().name());
        details.put("partitions", s.assigned());
        details.put("rebuilding", s.rebuilding());
        return Publishers.just(HealthResult.builder(NAME, s.ready() ? HealthStatus.UP : HealthStatus.DOWN)
                .details(details).build());
    }
}
