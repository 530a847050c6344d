package org.frontiergraph.worker;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.EmbeddedApplication;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a worker on a Kafka cluster: the one named by an argument, {@code KAFKA_BOOTSTRAP_SERVERS} or
 * {@code -Dkafka.bootstrap.servers}. The worker starts no broker; {@code ./frontier worker} starts an embedded one
 * when none is configured.
 *
 * <p>One shutdown path: {@link #close()}, run by the one shutdown hook of the process ({@link #main} installs it;
 * {@code ./frontier worker} installs its own). Micronaut's own hook is never installed (the context is started
 * here, not through {@code Micronaut.run}): two hooks stopping the context and the HTTP server from two threads
 * deadlocked on SIGTERM.
 */
public final class FrontierWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FrontierWorker.class);

    private final ApplicationContext context;
    private final String bootstrap;
    private boolean closed;

    private FrontierWorker(ApplicationContext context, String bootstrap) {
        this.context = context;
        this.bootstrap = bootstrap;
    }

    public static void main(String[] args) {
        String bootstrap = configuredBootstrap(null);
        if (bootstrap == null) {
            System.err.println("frontier worker: no Kafka cluster configured: set KAFKA_BOOTSTRAP_SERVERS or "
                    + "-Dkafka.bootstrap.servers (./frontier worker starts an embedded broker instead)");
            System.exit(2);
        }
        FrontierWorker worker = start(bootstrap, Map.of(), args);
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "frontier-shutdown"));
    }

    /** The bootstrap servers named by the argument, the environment or a system property; null when none. */
    public static String configuredBootstrap(String fromArgs) {
        if (fromArgs != null && !fromArgs.isBlank()) return fromArgs;
        String p = System.getProperty("kafka.bootstrap.servers");
        if (p != null && !p.isBlank()) return p;
        String env = System.getenv("KAFKA_BOOTSTRAP_SERVERS");
        return env == null || env.isBlank() ? null : env;
    }

    /**
     * Starts a worker on the Kafka cluster at {@code bootstrap} (required), with these settings over application.yml:
     * the context (which starts consuming) and then the HTTP server of health and metrics.
     */
    public static FrontierWorker start(String bootstrap, Map<String, Object> properties, String... args) {
        if (bootstrap == null || bootstrap.isBlank()) throw new IllegalArgumentException("a worker needs a Kafka bootstrap server");
        org.frontiergraph.schema.codec.FrontierCodec.trust();
        Map<String, Object> props = new HashMap<>(properties);
        props.put("kafka.bootstrap.servers", bootstrap);
        ApplicationContext ctx = ApplicationContext.builder().args(args).mainClass(FrontierWorker.class).banner(false)
                .properties(props).start();
        FrontierWorker worker = new FrontierWorker(ctx, bootstrap);
        try {
            ctx.findBean(EmbeddedApplication.class).ifPresent(EmbeddedApplication::start);
        } catch (RuntimeException e) {
            worker.close();
            throw e;
        }
        return worker;
    }

    public ApplicationContext context() { return context; }

    public String bootstrapServers() { return bootstrap; }

    /**
     * Stops the worker: the consumer ends the batch in hand, publishes and commits it and leaves the group (its
     * partitions are revoked and move to the other workers at once); then the HTTP server and the context stop, all
     * on the calling thread. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        long t0 = System.nanoTime();
        if (context.isRunning()) {
            context.findBean(GraphConsumer.class).ifPresent(GraphConsumer::stop);
            context.close();
        }
        LOG.info("worker stopped in {} ms", (System.nanoTime() - t0) / 1_000_000);
    }
}
