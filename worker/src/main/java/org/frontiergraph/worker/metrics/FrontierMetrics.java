package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * The worker's Prometheus metrics (served at /prometheus): queries by algorithm, status and backend; latency
 * histograms; graphs and bytes resident per backend; errors by code.
 */
@Singleton
public class FrontierMetrics {
    private final MeterRegistry meters;

    public FrontierMetrics(MeterRegistry meters, GraphRegistry graphs) {
        this.meters = meters;
        Gauge.builder("frontier.graphs.resident", graphs, GraphRegistry::size)
                .description("graphs held by this worker").register(meters);
        for (String backend : new String[] {"cpu", "gpu"}) {
            Gauge.builder("frontier.graphs.bytes", graphs, g -> g.residentBytes(backend))
                    .tag("backend", backend).description("bytes of graph data resident per backend").register(meters);
        }
        Gauge.builder("frontier.snapshots.pending.bytes", graphs, GraphRegistry::pendingSnapshotBytes)
                .description("bytes of snapshot chunks waiting for their version to complete").register(meters);
    }

    public void query(LatencyEvent e) {
        String algorithm = e.getAlgorithm() == null ? "unknown" : e.getAlgorithm().name();
        Counter.builder("frontier.queries").tag("algorithm", algorithm).tag("status", e.getStatus().name())
                .tag("backend", e.getBackend().isEmpty() ? "none" : e.getBackend()).register(meters).increment();
        timer("frontier.query.end_to_end", algorithm, e.getBackend()).record(Duration.ofNanos(e.getEndToEndMicros() * 1000));
        timer("frontier.query.compute", algorithm, e.getBackend()).record(Duration.ofNanos(e.getComputeMicros() * 1000));
    }

    public void error(ErrorCode code) {
        Counter.builder("frontier.errors").tag("code", code.name()).register(meters).increment();
    }

    private Timer timer(String name, String algorithm, String backend) {
        return Timer.builder(name).tag("algorithm", algorithm).tag("backend", backend.isEmpty() ? "none" : backend)
                .publishPercentileHistogram().register(meters);
    }
}
