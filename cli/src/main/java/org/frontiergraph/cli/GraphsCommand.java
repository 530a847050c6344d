package org.frontiergraph.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier graphs}: the graphs every worker of the cluster holds, from the status topic (each graph's last
 * GraphStatus), as a table or JSON; {@code ./frontier graphs drop G} drops one (its tombstone on the graphs topic).
 */
@Command(name = "graphs", mixinStandardHelpOptions = true, sortOptions = false, subcommands = GraphsCommand.Drop.class,
        description = "List the graphs the cluster holds (every worker's, from the status topic); 'graphs drop G' drops one.",
        footer = {"", "Each graph's last GraphStatus: version and when, vertices, edges (an undirected edge once), backend,",
                "resident bytes, the partition of frontier.graphs that holds its log, the worker that reported it.",
                "The status topic keeps 7 days: a graph neither loaded nor updated since is not listed.",
                "", "Examples:",
                "  ./frontier graphs",
                "  ./frontier graphs --format json | jq '.[].graphId'",
                "  ./frontier graphs drop rome"})
final class GraphsCommand implements Callable<Integer> {
    @ParentCommand
    FrontierCli cli;

    @Option(names = "--format", paramLabel = "table|json", defaultValue = "table",
            description = "table (default) or json: an array of objects, one per graph.")
    String format;

    @Option(names = "--all", description = "Also list graphs whose last status says DROPPED, and graphs whose only versions were REJECTED.")
    boolean all;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws IOException {
        boolean json = switch (format.toLowerCase(Locale.ROOT)) {
            case "json" -> true;
            case "table" -> false;
            default -> throw new picocli.CommandLine.ParameterException(kafka.command.commandLine(),
                    "--format: '" + format + "' is not table or json");
        };
        Properties p = kafka.clientProperties();
        KafkaReachability.check(p, KafkaReachability.TIMEOUT);
        FrontierClient.Topics topics = FrontierClient.Topics.defaults();
        List<GraphStatus> statuses;
        try (TopicWatcher<GraphStatus> status = new TopicWatcher<>(p, topics.status(), GraphStatus.class, true)) {
            statuses = status.catchUp(Duration.ofSeconds(30));
        }
        List<GraphTable.Row> rows = GraphTable.rows(statuses, all, partitions(p, topics.graphs()));
        Writer out = new OutputStreamWriter(cli.out, StandardCharsets.UTF_8);
        if (json) GraphTable.writeJson(rows, out);
        else GraphTable.writeTable(rows, out);
        return FrontierCli.OK;
    }

    /** The partition count of {@code topic}; -1 when it cannot be read in 5 s. */
    static int partitions(Properties kafka, String topic) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> parts = c.partitionsFor(topic, Duration.ofSeconds(5));
            return parts == null || parts.isEmpty() ? -1 : parts.size();
        } catch (KafkaException e) {
            return -1;
        }
    }

    /**
     * {@code ./frontier graphs drop G}: publishes the graph's tombstone (its id as key, no value) and waits until the
     * worker that holds it reports it DROPPED (exit 0), or a worker answers that it holds nothing of it (exit 1).
     */
    @Command(name = "drop", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Drop a graph: its worker frees it and ends its subscriptions; a rebuild does not bring it back.",
            footer = {"", "Publishes a tombstone (key: the graph id, no value) to frontier.graphs (docs/contract.md, \"Dropping a graph\")."})
    static final class Drop implements Callable<Integer> {
        @ParentCommand
        GraphsCommand graphs;

        @Parameters(paramLabel = "GRAPH", arity = "1", description = "The id of the graph to drop.")
        String graphId;

        @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class, defaultValue = "60",
                description = "How long to wait for the worker (default: ${DEFAULT-VALUE}).")
        long timeoutSeconds;

        @Mixin
        KafkaOptions kafka;

        @Override
        public Integer call() {
            KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);
            try (FrontierClient client = new FrontierClient(kafka.clientProperties(), FrontierClient.Topics.defaults());
                 TopicWatcher<GraphStatus> status = new TopicWatcher<>(kafka.clientProperties(), client.topics().status(), GraphStatus.class, false);
                 TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
                RecordMetadata at = client.drop(graphId);
                long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
                while (System.nanoTime() < deadline) {
                    for (GraphStatus s : status.poll(Duration.ofMillis(100))) {
                        if (graphId.equals(s.getGraphId()) && s.getState() == GraphState.DROPPED) {
                            graphs.cli.out.printf(Locale.ROOT, "graph '%s' dropped by %s (it was at version %d; tombstone at %s-%d@%d)%n",
                                    graphId, s.getWorker(), s.getVersion(), at.topic(), at.partition(), at.offset());
                            return FrontierCli.OK;
                        }
                    }
                    for (ErrorEvent e : errors.poll(Duration.ofMillis(100))) {
                        if (e.getPartition() == at.partition() && e.getOffset() == at.offset()) {
                            throw new CliFailure("graph '" + graphId + "' not dropped: " + e.getCode() + ": " + e.getReason());
                        }
                    }
                }
                throw new CliFailure("timed out after " + timeoutSeconds + " s waiting for a worker to drop graph '" + graphId
                        + "' (the tombstone is published; is a worker running on " + kafka.bootstrapServers() + "?)");
            }
        }
    }
}
