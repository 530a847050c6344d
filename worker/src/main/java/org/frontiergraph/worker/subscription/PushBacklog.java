package org.frontiergraph.worker.subscription;

/**
 * Which subscriptions have a push on its way to the broker, not yet acknowledged (the output publisher knows). A
 * subscription that has one holds its next UPDATE push back: its changes accumulate ({@link Pending}) and leave as one
 * push once the previous one was acknowledged, so that under lag the pushes of one subscription do not queue up one
 * per batch. The sequence rules are unchanged: the push that covers several batches is numbered the previous + 1.
 */
public interface PushBacklog {
    /** No backlog (tests, benchmarks without Kafka): every push leaves as it is made. */
    PushBacklog NONE = id -> false;

    /** Whether a push of {@code subscriptionId} was handed to the broker and is not acknowledged yet. */
    boolean behind(String subscriptionId);
}
