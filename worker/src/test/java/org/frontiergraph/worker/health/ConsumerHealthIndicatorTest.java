package org.frontiergraph.worker.health;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.frontiergraph.worker.kafka.GraphConsumer.State;
import org.frontiergraph.worker.kafka.GraphConsumer.Status;
import org.junit.jupiter.api.Test;

/** When the worker's consumer counts as live: consuming, polling, its thread running, not stopping. */
class ConsumerHealthIndicatorTest {
    private static Status status(State state, long lastPollMsAgo, boolean threadAlive) {
        return new Status(state, false, Set.of(0), Set.of(), lastPollMsAgo, 1, "boom", threadAlive);
    }

    @Test
    void aPollingConsumerIsLive() {
        assertNull(ConsumerHealthIndicator.problem(status(State.RUNNING, 150, true)));
        assertNull(ConsumerHealthIndicator.problem(status(State.STARTING, 150, true)));
        assertNull(ConsumerHealthIndicator.problem(status(State.RUNNING, Status.STALLED_AFTER_MS, true)),
                "a long batch (a large graph being built) is not a failure until Kafka's own limit");
    }

    @Test
    void aFailedStalledStoppedOrEndedConsumerIsNot() {
        assertTrue(ConsumerHealthIndicator.problem(status(State.RESTARTING, 10, true)).contains("boom"));
        assertTrue(ConsumerHealthIndicator.problem(status(State.RUNNING, Status.STALLED_AFTER_MS + 1, true)).contains("no poll"));
        assertTrue(ConsumerHealthIndicator.problem(status(State.RUNNING, 10, false)).contains("thread ended"));
        assertTrue(ConsumerHealthIndicator.problem(status(State.STOPPING, 10, true)).contains("stopping"));
        assertTrue(ConsumerHealthIndicator.problem(status(State.STOPPED, 10, false)).contains("stopping"));
    }

    @Test
    void publishingThatKeepsFailingIsNotLiveAndOneFailureLessIs() {
        Status failing = new Status(State.RUNNING, true, Set.of(0), Set.of(), 10, 0, null, true, 10,
                "org.apache.kafka.common.errors.TimeoutException: expired", 10);
        String problem = ConsumerHealthIndicator.problem(failing);
        assertTrue(problem != null && problem.contains("10 times in a row") && problem.contains("TimeoutException"), problem);
        assertNull(ConsumerHealthIndicator.problem(new Status(State.RUNNING, true, Set.of(0), Set.of(), 10, 0, null, true, 9,
                "org.apache.kafka.common.errors.TimeoutException: expired", 10)), "below frontier.max-publish-failures: retrying");
    }
}
