package org.frontiergraph.worker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micronaut.context.ApplicationContext;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.kernels.standing.RepairPolicy;
import org.frontiergraph.worker.config.FrontierConfig;
import org.junit.jupiter.api.Test;

/** The repair policy of standing answers comes from the worker's configuration: application.yml's defaults, or settings. */
class RepairPolicyConfigTest {
    @Test
    void defaultsAreTheBenchmarkedOnes() {
        try (ApplicationContext ctx = worker(Map.of())) {
            FrontierConfig config = ctx.getBean(FrontierConfig.class);
            assertEquals(RepairPolicy.DEFAULTS, Refresher.policy(config));
            assertEquals(20, config.getSlowBatchMs());
        }
        assertEquals(RepairPolicy.DEFAULTS, Refresher.policy(new FrontierConfig()), "a config built in code has them too");
    }

    @Test
    void settingsReachThePolicy() {
        Map<String, Object> settings = Map.of("frontier.subscriptions.device-first-arcs", 7,
                "frontier.subscriptions.device-budget-divisor", 3, "frontier.trees.side-by-side", false,
                "frontier.trees.blocks-per-sm", 2, "frontier.trees.phases", true, "frontier.trees.settle", "df=256,ahead=16", "frontier.trees.shift-passes", 3,
                "frontier.slow-batch-ms", 5);
        try (ApplicationContext ctx = worker(settings)) {
            FrontierConfig config = ctx.getBean(FrontierConfig.class);
            assertEquals(new RepairPolicy(7, 3, RepairPolicy.DEFAULTS.gpuSpeedUp(), false, 2, true, "df=256,ahead=16", 3),
                    Refresher.policy(config));
            assertEquals(5, config.getSlowBatchMs());
        }
    }

    /** The worker's context with {@code settings} (no broker reached: the CPU engine, no topics created, no HTTP port). */
    private static ApplicationContext worker(Map<String, Object> settings) {
        Map<String, Object> props = new HashMap<>(settings);
        props.put("kafka.bootstrap.servers", "localhost:1");
        props.put("frontier.backend", "cpu");
        props.put("frontier.topics.create", false);
        props.put("micronaut.server.port", -1);
        return ApplicationContext.builder().banner(false).properties(props).start();
    }
}
