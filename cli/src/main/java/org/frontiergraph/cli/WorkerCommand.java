package org.frontiergraph.cli;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.frontiergraph.worker.FrontierWorker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier worker}: a worker on the configured Kafka cluster, or on an embedded broker (see
 * {@link EmbeddedKafkaBroker#startLocal}) when none is configured. Runs until Ctrl-C or SIGTERM.
 */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Run a worker until Ctrl-C / SIGTERM. Without a Kafka cluster (--bootstrap, "
                + "$KAFKA_BOOTSTRAP_SERVERS) it starts an embedded broker on localhost:9092 ($FRONTIER_KAFKA_PORT), "
                + "its log in .frontier/kafka-9092.",
                "--kafka-config and --kafka-property reach the worker's consumer and producers as kafka.* settings."})
final class WorkerCommand implements Callable<Integer> {
    @ParentCommand
    FrontierCli cli;

    @Mixin
    KafkaOptions kafka;

    @Option(names = "--backend", paramLabel = "auto|gpu|cpu", converter = Converters.BackendName.class,
            description = "The engine (default: frontier.backend, auto: the GPU when there is one).")
    String backend;

    @Override
    public Integer call() throws InterruptedException {
        Map<String, Object> props = new HashMap<>(kafka.workerProperties());
        if (backend != null) props.put("frontier.backend", backend);
        String bootstrap = kafka.configuredBootstrap();
        if (bootstrap == null && kafka.hasClientSettings()) {
            throw new ParameterException(kafka.command.commandLine(), "--kafka-config / --kafka-property need a Kafka "
                    + "cluster (--bootstrap); the embedded broker takes no client settings");
        }
        if (bootstrap != null) KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);
        EmbeddedKafkaBroker broker = bootstrap == null ? EmbeddedKafkaBroker.startLocal() : null;
        FrontierWorker w;
        try {
            w = FrontierWorker.start(broker == null ? bootstrap : broker.bootstrapServers(), props);
        } catch (RuntimeException e) {
            if (broker != null) broker.close();
            throw e;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            w.close();   // the worker before the broker: the other order hangs Kafka clients on close
            if (broker != null) broker.close();
            stop.countDown();
        }, "frontier-shutdown"));
        cli.out.println("frontier worker running; Kafka at " + w.bootstrapServers() + "; Ctrl-C stops it");
        stop.await();
        return FrontierCli.OK;
    }
}
