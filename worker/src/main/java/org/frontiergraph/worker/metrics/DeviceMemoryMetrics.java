package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.worker.registry.EngineService;

/**
 * Device memory of the GPU engine, where this worker has one (none on the CPU engine): what this worker's graphs
 * and work arrays hold, what the driver reports free, and the total. A scrape never waits for a running query: while
 * one holds the device the free gauge repeats the last value read. Micronaut binds every {@link MeterBinder} bean to
 * the registry.
 */
@Singleton
public class DeviceMemoryMetrics implements MeterBinder {
    private final EngineService engines;
    /** The last free-bytes reading (-1: none yet). */
    private final AtomicLong lastFree = new AtomicLong(-1);

    public DeviceMemoryMetrics(EngineService engines) {
        this.engines = engines;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        engines.gpuEngine().ifPresent(gpu -> {
            Gauge.builder("frontier.device.memory.used", gpu, GpuBackend::deviceBytesInUse).baseUnit("bytes")
                    .description("Device memory held by this worker's resident graphs and their work arrays").register(meters);
            Gauge.builder("frontier.device.memory.free", gpu, this::free).baseUnit("bytes")
                    .description("Device memory free as the CUDA driver reports it (other processes' use counts too)")
                    .register(meters);
            Gauge.builder("frontier.device.memory.total", gpu, GpuBackend::deviceBytesTotal).baseUnit("bytes")
                    .description("Device memory of the GPU in all").register(meters);
        });
    }

    private double free(GpuBackend gpu) {
        gpu.deviceBytesFree().ifPresent(lastFree::set);
        long free = lastFree.get();
        return free < 0 ? Double.NaN : free;
    }
}
