package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Singleton;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.worker.registry.EngineService;

/**
 * Device memory of the GPU engine, where this worker has one (none on the CPU engine): what this worker's graphs
 * and work arrays hold, what the driver reports free, and the total. A scrape never waits for a running query: while
 * a graph's memory check and allocation run the free gauge repeats the last value read. Micronaut binds every
 * {@link MeterBinder} bean to the registry.
 */
@Singleton
public class DeviceMemoryMetrics implements MeterBinder {
    private final EngineService engines;

    /** Where the gauges read device memory: the GPU engine (tests use a stand-in). */
    public interface DeviceMemory {
        long used();

        /** Empty when it cannot be read without waiting. */
        OptionalLong free();

        long total();
    }

    public DeviceMemoryMetrics(EngineService engines) {
        this.engines = engines;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        engines.gpuEngine().ifPresent(gpu -> register(meters, of(gpu)));
    }

    private static DeviceMemory of(GpuBackend gpu) {
        return new DeviceMemory() {
            @Override public long used() { return gpu.deviceBytesInUse(); }
            @Override public OptionalLong free() { return gpu.deviceBytesFree(); }
            @Override public long total() { return gpu.deviceBytesTotal(); }
        };
    }

    /** Registers the three device-memory gauges on {@code source}. */
    public static void register(MeterRegistry meters, DeviceMemory source) {
        AtomicLong lastFree = new AtomicLong(-1);   // the last free-bytes reading (-1: none yet)
        Gauge.builder("frontier.device.memory.used", source, DeviceMemory::used).baseUnit("bytes")
                .description("Device memory held by this worker's resident graphs and their work arrays").register(meters);
        Gauge.builder("frontier.device.memory.free", source, s -> {
                    s.free().ifPresent(lastFree::set);
                    return lastFree.get() < 0 ? Double.NaN : lastFree.get();
                }).baseUnit("bytes")
                .description("Device memory free as the CUDA driver reports it (other processes' use counts too)")
                .register(meters);
        Gauge.builder("frontier.device.memory.total", source, DeviceMemory::total).baseUnit("bytes")
                .description("Device memory of the GPU in all").register(meters);
    }
}
