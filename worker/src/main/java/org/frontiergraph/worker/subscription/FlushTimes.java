package org.frontiergraph.worker.subscription;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where a graph's flush spent its time, step by step, and how many answers each step took: for the slow-flush DEBUG line
 * and the step timers ({@code frontier.subscriptions.flush.step}).
 */
final class FlushTimes {
    /** A graph's flush, step by step (the step timers' tag: the name in lower case, dashed). */
    enum Phase {
        SCREEN, HOST_REPAIRS, DEVICE_REPAIRS, RECOMPUTES, PUSHES;

        String tag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final long[] nanos = new long[Phase.values().length];
    /** Answers the batch touched, that the host gave up on, that were recomputed. */
    int touched, gaveUp, recomputed;

    void reset() {
        Arrays.fill(nanos, 0);
        touched = gaveUp = recomputed = 0;
    }

    void add(Phase phase, long ns) {
        nanos[phase.ordinal()] += ns;
    }

    /** The time of {@code phase} in this flush; 0 when it did not run. */
    long nanos(Phase phase) {
        return nanos[phase.ordinal()];
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    @Override
    public String toString() {
        return "screen " + ms(nanos[Phase.SCREEN.ordinal()]) + ", host repairs " + ms(nanos[Phase.HOST_REPAIRS.ordinal()])
                + " (" + touched + " touched), device repairs " + ms(nanos[Phase.DEVICE_REPAIRS.ordinal()]) + " (" + gaveUp
                + " the host gave up on), recomputes " + ms(nanos[Phase.RECOMPUTES.ordinal()]) + " (" + recomputed + "), pushes "
                + ms(nanos[Phase.PUSHES.ordinal()]);
    }
}
