package org.frontiergraph.worker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The subscriptions gauge reads the count after garbage collections (a gauge holds its object weakly by default). */
class SubscriptionMetricsTest {
    @Test
    void theGaugeOfSubscriptionsHeldSurvivesGarbageCollection() throws InterruptedException {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        int[] held = {7};
        new SubscriptionMetrics(meters, () -> held[0]);   // a capturing supplier, held by nothing else
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        held[0] = 9;
        assertEquals(9.0, meters.get("frontier.subscriptions").gauge().value());
    }
}
