package org.frontiergraph.worker.health;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.reactivestreams.Publisher;

/**
 * Liveness ({@code /health/liveness}, and {@code /health}): DOWN when the worker's consumer of the graphs topic is
 * not consuming: its thread ended, it failed and is being replaced by a new one, it has not polled for longer than
 * Kafka's max.poll.interval (the group has given its partitions away), publishing its outputs has failed
 * {@code frontier.max-publish-failures} times in a row (the broker away or refusing; failures that are a record's own are
 * never retried), or the worker is stopping.
 */
@Singleton
@Liveness
public class ConsumerHealthIndicator implements HealthIndicator {
    static final String NAME = "frontier-consumer";

    private final GraphConsumer consumer;

    public ConsumerHealthIndicator(GraphConsumer consumer) {
        this.consumer = consumer;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        GraphConsumer.Status s = consumer.status();
        String problem = problem(s);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("state", s.state().name());
        details.put("partitions", s.assigned());
        details.put("lastPollMsAgo", s.lastPollAgeMs());
        details.put("restarts", s.restarts());
        if (s.lastFailure() != null) details.put("lastFailure", s.lastFailure());
        if (s.publishFailures() > 0) {
            details.put("publishFailures", s.publishFailures());
            details.put("lastPublishFailure", s.lastPublishFailure());
        }
        if (problem != null) details.put("problem", problem);
        return Publishers.just(HealthResult.builder(NAME, problem == null ? HealthStatus.UP : HealthStatus.DOWN)
                .details(details).build());
    }

    /** Why the consumer is not live; null when it is. */
    static String problem(GraphConsumer.Status s) {
        return switch (s.state()) {
            case STOPPING, STOPPED -> "the worker is stopping";
            case RESTARTING -> "the consumer failed (" + s.lastFailure() + ") and is being replaced";
            case STARTING, RUNNING -> !s.threadAlive() ? "the consumer thread ended"
                    : s.publishFailures() >= s.maxPublishFailures() ? "publishing outputs failed " + s.publishFailures()
                            + " times in a row (frontier.max-publish-failures " + s.maxPublishFailures() + "; last: " + s.lastPublishFailure() + ")"
                    : s.lastPollAgeMs() > GraphConsumer.Status.STALLED_AFTER_MS
                            ? "no poll for " + s.lastPollAgeMs() / 1000 + " s: the group has given its partitions away" : null;
        };
    }
}
