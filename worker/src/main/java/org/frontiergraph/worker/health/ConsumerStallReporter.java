package org.frontiergraph.worker.health;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.function.Supplier;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs where the consumer's thread is when it has not polled for {@code frontier.stall-report} (default 60 s): one WARN
 * per stall with the thread's stack, and the {@code frontier.consumer.stalls} counter. A consumer that stops polling is
 * stuck in its batch (a device call that does not return, a lock): liveness goes DOWN after
 * {@code max.poll.interval.ms} ({@link ConsumerHealthIndicator}) and the pod is restarted, so without this line the
 * log would not say where it hung. A stall ends when the consumer polls again; the next one is reported again.
 */
@Singleton
public class ConsumerStallReporter {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerStallReporter.class);

    private final GraphConsumer consumer;
    private final long afterMs;
    private final Counter stalls;
    /** The current stall was reported. */
    private boolean reported;

    @Inject
    public ConsumerStallReporter(GraphConsumer consumer, FrontierConfig config, MeterRegistry meters) {
        this(consumer, config.getStallReport().toMillis(), meters);
    }

    /** Reports stalls of {@code consumer} (null: only {@link #check(GraphConsumer.Status, Supplier)} is called) longer than {@code afterMs}. */
    ConsumerStallReporter(GraphConsumer consumer, long afterMs, MeterRegistry meters) {
        this.consumer = consumer;
        this.afterMs = afterMs;
        this.stalls = Counter.builder("frontier.consumer.stalls")
                .description("Times the consumer of the graphs topic went frontier.stall-report without polling (each logged with its thread's stack)")
                .register(meters);
    }

    @Scheduled(fixedDelay = "5s", initialDelay = "5s")
    void check() {
        String report = check(consumer.status(), consumer::stack);   // the stack taken only for a report
        if (report != null) LOG.warn("{}", report);
    }

    /** The report of a stall not reported yet, or null; counts it. */
    synchronized String check(GraphConsumer.Status s, Supplier<StackTraceElement[]> stack) {
        boolean consuming = s.threadAlive() && (s.state() == GraphConsumer.State.RUNNING || s.state() == GraphConsumer.State.STARTING);
        if (afterMs <= 0 || !consuming || s.lastPollAgeMs() < afterMs) {
            reported = false;
            return null;
        }
        if (reported) return null;
        reported = true;
        stalls.increment();
        StringBuilder b = new StringBuilder("the consumer of the graphs topic has not polled for ").append(s.lastPollAgeMs() / 1000)
                .append(" s (frontier.stall-report ").append(afterMs / 1000).append(" s; liveness goes DOWN after ")
                .append(GraphConsumer.Status.STALLED_AFTER_MS / 1000).append(" s); its thread is at:");
        for (StackTraceElement e : stack.get()) b.append("\n\tat ").append(e);
        return b.toString();
    }
}
