package org.frontiergraph.worker.registry;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.engine.BackendMode;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuSettings;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the compute backends of this process: the CPU engine always, the GPU engine when configured (auto/gpu) and
 * present. Decides where a graph version lives and which backend answers a query.
 */
@Singleton
public class EngineService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineService.class);

    private final FrontierConfig config;
    private final ComputeBackend cpu;
    private final Optional<ComputeBackend> gpu;

    public EngineService(FrontierConfig config) {
        this.config = config;
        this.cpu = Backends.cpu();
        this.gpu = Backends.gpu(BackendMode.parse(config.getBackend()), gpuSettings(config.getGpu()));
        LOG.info("compute backends: default {}; GPU {}", defaultBackend(),
                gpu.isPresent() ? "present" : "absent (" + GpuBackend.unavailableReason().orElse("not configured") + ")");
    }

    /** The GPU engine's switches from {@code frontier.gpu.*}. @throws IllegalArgumentException for a value out of range */
    static GpuSettings gpuSettings(FrontierConfig.Gpu c) {
        return new GpuSettings(c.getDevice(), c.isLanes(), c.isEditsOnDevice(), c.getSlackMin(), c.getSlackShift(),
                c.isEditPhases(), GpuSettings.LiveBound.parse(c.getSsspLiveBound()));
    }

    /** The backend a graph is loaded on unless a query says otherwise. */
    public String defaultBackend() {
        return gpu.map(ComputeBackend::name).orElse(cpu.name());
    }

    /** The GPU engine, when this worker has one: read only, for its device-memory gauges. */
    public Optional<GpuBackend> gpuEngine() {
        return gpu.filter(GpuBackend.class::isInstance).map(GpuBackend.class::cast);
    }

    /** Loads a graph version on the default backend; falls back to the CPU engine when the GPU cannot hold it (if allowed). */
    public ResidentGraph load(CsrGraph graph) {
        if (gpu.isPresent()) {
            try {
                return gpu.get().load(graph);
            } catch (GraphTooLargeException e) {
                if (!mayMoveToCpu(graph)) throw new RejectedException(ErrorCode.of(e), e.getMessage(), e);
                LOG.warn("{}; holding it on the CPU engine instead (frontier.gpu-fallback-to-cpu=true)", e.getMessage());
            }
        }
        try {
            return cpu.load(graph);
        } catch (GraphTooLargeException e) {   // one GRAPH_TOO_LARGE and a REJECTED status, as for any refused snapshot
            throw new RejectedException(ErrorCode.of(e), e.getMessage(), e);
        }
    }

    /**
     * Whether a graph the GPU cannot hold may move to the CPU engine: when {@code frontier.gpu-fallback-to-cpu} allows
     * and the graph is not wide (more than 2^31 - 8 arcs: the CPU engine indexes arcs with int32).
     */
    public boolean mayMoveToCpu(CsrGraph graph) {
        return config.isGpuFallbackToCpu() && !graph.wide();
    }

    /** The same graph held by the CPU engine (the GPU copy could not follow it). */
    public ResidentGraph onCpu(ResidentGraph held) {
        return cpu.load(held.graph());
    }

    /**
     * The backend that answers a query asking for {@code requested} (null: configured default) on a graph held by
     * {@code held}: the held copy when the backends match, else a CPU view of the same host graph.
     */
    public ResidentGraph forQuery(ResidentGraph held, String requested) {
        BackendMode mode;
        try {
            mode = requested == null ? BackendMode.AUTO : BackendMode.parse(requested);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, e.getMessage());
        }
        if (mode == BackendMode.GPU && !held.backend().equals("gpu")) {
            throw new RejectedException(ErrorCode.UNSUPPORTED, gpu.isEmpty()
                    ? "backend 'gpu' requested but this worker has no GPU engine: " + GpuBackend.unavailableReason().orElse("disabled by frontier.backend=cpu")
                    : "backend 'gpu' requested but this graph is held on the CPU engine (it did not fit on the GPU)");
        }
        if (mode == BackendMode.CPU && !held.backend().equals(cpu.name())) {
            return cpu.load(held.graph());
        }
        return held;
    }

    @Override
    @PreDestroy
    public void close() {
        gpu.ifPresent(ComputeBackend::close);
        cpu.close();
    }
}
