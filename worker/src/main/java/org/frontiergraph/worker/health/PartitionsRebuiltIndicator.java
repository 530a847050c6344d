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
 * its partitions and the graphs of every one were rebuilt from the log; DOWN while it starts, joins, rebuilds,
 * restarts its consumer or stops. A worker assigned nothing is UP only while the group is stable and other members
 * hold every partition (more workers than partitions, {@link GroupCoverage}): a joining worker's first assignment is
 * empty while its partitions are being given up by their owner.
 */
@Singleton
public class PartitionsRebuiltIndicator implements HealthIndicator {
    static final String NAME = "frontier-partitions";

    private final GraphConsumer consumer;
    private final GroupCoverage group;

    public PartitionsRebuiltIndicator(GraphConsumer consumer, GroupCoverage group) {
        this.consumer = consumer;
        this.group = group;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        GraphConsumer.Status s = consumer.status();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("state", s.state().name());
        details.put("partitions", s.assigned());
        details.put("rebuilding", s.rebuilding());
        boolean up = s.ready();
        if (up && s.assigned().isEmpty()) {
            up = group.othersHoldEveryPartition();
            details.put("idle", up ? "other members hold every partition" : "no partition yet: the group is rebalancing or has some to give");
        }
        return Publishers.just(HealthResult.builder(NAME, up ? HealthStatus.UP : HealthStatus.DOWN).details(details).build());
    }
}
