package org.frontiergraph.worker.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.kernels.gpu.GpuSettings;
import org.frontiergraph.worker.config.FrontierConfig;
import org.junit.jupiter.api.Test;

/**
 * The GPU engine's switches come from {@code frontier.gpu.*} (application.yml, properties, environment variables),
 * with the engine's defaults where none is set, and reach the engine as one {@link GpuSettings}.
 */
class GpuSettingsConfigTest {
    private static ApplicationContext worker(Map<String, Object> env, Map<String, Object> properties) {
        Map<String, Object> props = new HashMap<>(properties);
        props.put("kafka.bootstrap.servers", "localhost:1");
        props.put("frontier.backend", "cpu");
        props.put("frontier.topics.create", false);
        props.put("micronaut.server.port", -1);
        return ApplicationContext.builder().banner(false).properties(props)
                .propertySources(PropertySource.of("test-env", env, PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE))
                .start();
    }

    @Test
    void applicationYmlHoldsTheEnginesDefaults() {
        try (ApplicationContext ctx = worker(Map.of(), Map.of())) {
            assertEquals(GpuSettings.DEFAULTS, EngineService.gpuSettings(ctx.getBean(FrontierConfig.class).getGpu()));
        }
        assertEquals(GpuSettings.DEFAULTS, EngineService.gpuSettings(new FrontierConfig().getGpu()), "the class's own defaults");
    }

    @Test
    void propertiesAndEnvironmentVariablesSetThem() {
        Map<String, Object> props = Map.of("frontier.gpu.lanes", false, "frontier.gpu.edits-on-device", "false",
                "frontier.gpu.slack-min", 2, "frontier.gpu.sssp-live-bound", "OFF", "frontier.gpu.edit-phases", true);
        try (ApplicationContext ctx = worker(Map.of("FRONTIER_GPU_SLACK_SHIFT", "4", "FRONTIER_GPU_DEVICE", "1"), props)) {
            assertEquals(new GpuSettings(1, false, false, 2, 4, true, GpuSettings.LiveBound.OFF),
                    EngineService.gpuSettings(ctx.getBean(FrontierConfig.class).getGpu()));
        }
    }

    @Test
    void aValueOutOfRangeIsRefusedWithItsName() {
        FrontierConfig.Gpu c = new FrontierConfig().getGpu();
        c.setSsspLiveBound("sometimes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineService.gpuSettings(c));
        assertEquals("frontier.gpu.sssp-live-bound must be auto, on or off, not 'sometimes'", e.getMessage());
        c.setSsspLiveBound("auto");
        c.setSlackShift(-1);
        assertThrows(IllegalArgumentException.class, () -> EngineService.gpuSettings(c));
    }
}
