package org.frontiergraph.worker.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Set;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.junit.jupiter.api.Test;

/** A consumer that stops polling is reported once per stall, with its thread's stack, and counted; nothing else is. */
class ConsumerStallReporterTest {
    private static final StackTraceElement[] STACK = {
        new StackTraceElement("jcuda.driver.JCudaDriver", "cuEventSynchronizeNative", null, -2),
        new StackTraceElement("org.frontiergraph.kernels.standing.DeviceTrees", "repairOnDevice", "DeviceTrees.java", 302)};

    private static GraphConsumer.Status running(long ageMs) {
        return new GraphConsumer.Status(GraphConsumer.State.RUNNING, true, Set.of(0), Set.of(), ageMs, 0, null, true);
    }

    @Test
    void aStallIsReportedOnceWithTheThreadsStackAndAgainAfterThePollsResume() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ConsumerStallReporter r = new ConsumerStallReporter(null, 60_000, meters);
        assertNull(r.check(running(59_000), () -> STACK), "under the threshold");
        String report = r.check(running(70_000), () -> STACK);
        assertNotNull(report);
        assertTrue(report.contains("has not polled for 70 s"), report);
        assertTrue(report.contains("at org.frontiergraph.kernels.standing.DeviceTrees.repairOnDevice(DeviceTrees.java:302)"), report);
        assertTrue(report.indexOf("cuEventSynchronizeNative") < report.indexOf("repairOnDevice"), "innermost call first");
        assertNull(r.check(running(75_000), () -> STACK), "the same stall is reported once");
        assertEquals(1.0, meters.get("frontier.consumer.stalls").counter().count());
        assertNull(r.check(running(200), () -> STACK), "polling again");
        assertNotNull(r.check(running(61_000), () -> STACK), "a new stall");
        assertEquals(2.0, meters.get("frontier.consumer.stalls").counter().count());
    }

    @Test
    void aStoppingOrRestartingConsumerOrAThresholdOfZeroReportsNothing() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ConsumerStallReporter r = new ConsumerStallReporter(null, 60_000, meters);
        for (GraphConsumer.State st : new GraphConsumer.State[] {GraphConsumer.State.STOPPING, GraphConsumer.State.STOPPED,
                GraphConsumer.State.RESTARTING}) {
            assertNull(r.check(new GraphConsumer.Status(st, false, Set.of(), Set.of(), 600_000, 1, "x", true), () -> STACK), st.name());
        }
        assertNull(r.check(new GraphConsumer.Status(GraphConsumer.State.RUNNING, true, Set.of(), Set.of(), 600_000, 0, null, false), () -> STACK),
                "the thread ended: liveness says so");
        ConsumerStallReporter off = new ConsumerStallReporter(null, 0, new SimpleMeterRegistry());
        assertNull(off.check(running(600_000), () -> STACK), "frontier.stall-report 0s: never");
        assertEquals(0.0, meters.get("frontier.consumer.stalls").counter().count());
    }
}
