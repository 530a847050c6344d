package org.frontiergraph.worker;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import java.util.HashMap;
import java.util.Map;

/**
 * Starts a worker on a Kafka cluster: the one named by an argument, {@code KAFKA_BOOTSTRAP_SERVERS} or
 * {@code -Dkafka.bootstrap.servers}. The worker starts no broker; {@code ./frontier worker} starts an embedded one
 * when none is configured.
 */
public final class FrontierWorker implements AutoCloseable {
    private final ApplicationContext context;
    private final String bootstrap;

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

    /** Starts a worker on the Kafka cluster at {@code bootstrap} (required), with these settings over application.yml. */
    public static FrontierWorker start(String bootstrap, Map<String, Object> properties, String... args) {
        if (bootstrap == null || bootstrap.isBlank()) throw new IllegalArgumentException("a worker needs a Kafka bootstrap server");
        org.frontiergraph.schema.codec.FrontierCodec.trust();
        Map<String, Object> props = new HashMap<>(properties);
        props.put("kafka.bootstrap.servers", bootstrap);
        ApplicationContext ctx = Micronaut.build(args).mainClass(FrontierWorker.class).banner(false).properties(props).start();
        return new FrontierWorker(ctx, bootstrap);
    }

    public ApplicationContext context() { return context; }

    public String bootstrapServers() { return bootstrap; }

    @Override
    public void close() {
        if (context.isRunning()) context.close();
    }
}
