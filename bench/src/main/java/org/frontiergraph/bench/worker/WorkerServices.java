package org.frontiergraph.bench.worker;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.query.QueryService;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.subscription.SubscriptionService;

/**
 * The worker's record processing wired without Kafka and without Micronaut, on the CPU engine: what the benches that
 * skip the broker hand their encoded records to (the processor, as the consumer thread would) and read the held
 * graphs from (the registry).
 */
public final class WorkerServices implements AutoCloseable {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final EngineService engines;
    private final GraphRegistry registry;
    private final GraphEventProcessor processor;

    public WorkerServices(String workerId) {
        FrontierConfig config = new FrontierConfig();
        config.setBackend("cpu");
        config.setWorkerId(workerId);
        engines = new EngineService(config);
        registry = new GraphRegistry(engines, config);
        processor = new GraphEventProcessor(registry, new QueryService(registry, engines, config),
                new SubscriptionService(registry, engines, config, meters), new FrontierMetrics(meters, registry), config);
    }

    public GraphRegistry registry() { return registry; }

    public GraphEventProcessor processor() { return processor; }

    @Override
    public void close() {
        registry.close();
        engines.close();
        meters.close();
    }
}
