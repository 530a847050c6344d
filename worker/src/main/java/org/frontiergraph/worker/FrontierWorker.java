package org.frontiergraph.worker;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.worker.kafka.EmbeddedKafkaBroker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a worker. With a Kafka bootstrap configured (argument, {@code KAFKA_BOOTSTRAP_SERVERS} or
 * {@code -Dkafka.bootstrap.servers}) it uses that cluster and starts nothing else; without one it first starts a
 * real single-node KRaft broker on localhost (port {@code FRONTIER_KAFKA_PORT}, default 9092).
 */
public final class FrontierWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FrontierWorker.class);

    private final ApplicationContext context;
    private final EmbeddedKafkaBroker broker;
    private final String bootstrap;

    private FrontierWorker(ApplicationContext context, EmbeddedKafkaBroker broker, String bootstrap) {
        this.context = context;
        this.broker = broker;
        this.bootstrap = bootstrap;
    }

    public static void main(String[] args) {
        FrontierWorker worker = start(configuredBootstrap(null), Map.of(), args);
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
     * Starts a worker on {@code bootstrap}, or on a new embedded broker when it is null (port from
     * FRONTIER_KAFKA_PORT, default 9092; 0 picks a free port; log under .frontier/kafka or a temporary folder).
     */
    public static FrontierWorker start(String bootstrap, Map<String, Object> properties, String... args) {
        org.frontiergraph.schema.codec.FrontierCodec.trust();
        EmbeddedKafkaBroker broker = null;
        if (bootstrap == null) {
            int port = Integer.parseInt(envOr("FRONTIER_KAFKA_PORT", "9092"));
            String dir = System.getenv("FRONTIER_KAFKA_DIR");
            broker = port == 0 || dir == null ? (port == 0 ? EmbeddedKafkaBroker.startTemporary()
                    : EmbeddedKafkaBroker.start(port, Path.of(".frontier", "kafka-" + port), false))
                    : EmbeddedKafkaBroker.start(port, Path.of(dir), false);
            bootstrap = broker.bootstrapServers();
            LOG.info("no Kafka bootstrap configured: started an embedded broker on {}", bootstrap);
        }
        Map<String, Object> props = new HashMap<>(properties);
        props.put("kafka.bootstrap.servers", bootstrap);
        try {
            ApplicationContext ctx = Micronaut.build(args).mainClass(FrontierWorker.class).banner(false).properties(props).start();
            return new FrontierWorker(ctx, broker, bootstrap);
        } catch (RuntimeException e) {
            if (broker != null) broker.close();
            throw e;
        }
    }

    private static String envOr(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v;
    }

    public ApplicationContext context() { return context; }

    public String bootstrapServers() { return bootstrap; }

    /** Stops the application before the broker (the other order hangs Kafka clients on close). */
    @Override
    public void close() {
        if (context.isRunning()) context.close();
        if (broker != null) broker.close();
    }
}
