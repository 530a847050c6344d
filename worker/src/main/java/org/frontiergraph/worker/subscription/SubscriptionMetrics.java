package org.frontiergraph.worker.subscription;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The meters of standing queries: subscriptions held, answers brought up to date (by incremental repair on the host
 * or the device, or by recompute), repairs that differed from a recompute, each graph's flush time, and the time of each
 * step of a flush that ran one ({@link FlushTimes.Phase}). Pushes are counted where they are made ({@link PushMaker}).
 */
final class SubscriptionMetrics {
    final Counter repaired;
    final Counter recomputed;
    final Counter repairedOnDevice;
    final Counter mismatches;
    private final Timer flushes;
    /** Each step's time in the flushes that ran it. */
    private final Map<FlushTimes.Phase, Timer> steps = new EnumMap<>(FlushTimes.Phase.class);

    SubscriptionMetrics(MeterRegistry meters, IntSupplier held) {
        // held strongly: a gauge keeps only a weak reference to its object, and nothing else holds this supplier
        // (weakly held, it is collected and the gauge reads NaN)
        Gauge.builder("frontier.subscriptions", held, IntSupplier::getAsInt).strongReference(true)
                .description("Standing queries held by this worker").register(meters);
        repaired = updates(meters, "repaired");
        recomputed = updates(meters, "recomputed");
        repairedOnDevice = updates(meters, "repaired-on-device");
        flushes = Timer.builder("frontier.subscriptions.flush")
                .description("A graph's standing answers brought up to date and its pushes made after a poll batch (repairs, recomputes, pushes)")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                .register(meters);
        for (FlushTimes.Phase p : FlushTimes.Phase.values()) {
            steps.put(p, Timer.builder("frontier.subscriptions.flush.step").tag("step", p.tag())
                    .description("One step of a graph's flush, in the flushes that ran it: the batch's screen, the host's repairs, the "
                            + "device's repairs of the trees the host gave up on, the recomputes, the pushes")
                    .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                    .register(meters));
        }
        mismatches = Counter.builder("frontier.subscriptions.mismatches")
                .description("Incremental repairs that differed from a recompute (frontier.verify-incremental); each was replaced and pushed as RESYNC")
                .register(meters);
    }

    /** Records a graph's flush: its time, and the time of each step it ran. */
    void flushed(long nanos, FlushTimes times) {
        flushes.record(nanos, TimeUnit.NANOSECONDS);
        for (Map.Entry<FlushTimes.Phase, Timer> e : steps.entrySet()) {
            long t = times.nanos(e.getKey());
            if (t > 0) e.getValue().record(t, TimeUnit.NANOSECONDS);
        }
    }

    private static Counter updates(MeterRegistry meters, String how) {
        return Counter.builder("frontier.subscriptions.updates").tag("how", how)
                .description("Standing answers brought up to date after a batch of updates, by incremental repair or by recompute")
                .register(meters);
    }
}
