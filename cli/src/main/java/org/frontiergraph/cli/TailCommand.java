package org.frontiergraph.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier tail}: prints the records of an output topic as they arrive, decoded, one JSON line each
 * ({@link RecordJson}), until Ctrl-C or SIGTERM (exit 0), {@code --max} records or {@code --timeout} seconds.
 */
@Command(name = "tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print what workers publish on an output topic, decoded, one JSON line per record, until Ctrl-C.",
        footer = {"", "TOPIC: results (QueryResult chunks and subscription pushes), errors (ErrorEvent), latency",
                "(LatencyEvent, one per query), status (GraphStatus). Every field of the record by name; packed arrays",
                "as JSON arrays (docs/contract.md).",
                "", "Examples:",
                "  ./frontier tail latency --graph rome",
                "  ./frontier tail errors --from-beginning --timeout 5",
                "  ./frontier tail status --from-beginning --max 10 | jq -c '{graphId, version, state}'"})
final class TailCommand implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration CLOSE = Duration.ofSeconds(1);

    /** The output topics, by the name the command takes. */
    enum Topic {
        RESULTS(QueryResult.class), ERRORS(ErrorEvent.class), LATENCY(LatencyEvent.class), STATUS(GraphStatus.class);

        final Class<? extends SpecificRecord> type;

        Topic(Class<? extends SpecificRecord> type) {
            this.type = type;
        }

        String name(FrontierClient.Topics t) {
            return switch (this) {
                case RESULTS -> t.results();
                case ERRORS -> t.errors();
                case LATENCY -> t.latency();
                case STATUS -> t.status();
            };
        }
    }

    @ParentCommand
    FrontierCli cli;

    @Parameters(paramLabel = "TOPIC", arity = "1", converter = TopicName.class, description = "results, errors, latency or status.")
    Topic topic;

    @Option(names = "--graph", paramLabel = "ID", description = "Only the records of this graph.")
    String graphId;

    @Option(names = "--from-beginning", description = "Start at the oldest record the topic keeps (default: only new ones).")
    boolean fromBeginning;

    @Option(names = "--max", paramLabel = "N", converter = Converters.Count.class, description = "Stop after N records.")
    Long max;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class,
            description = "Stop after SECONDS (default: run until Ctrl-C).")
    Long timeoutSeconds;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws IOException {
        KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);
        Writer out = new OutputStreamWriter(cli.out, StandardCharsets.UTF_8);
        long deadline = timeoutSeconds == null ? Long.MAX_VALUE : System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        long printed = 0;
        try (StopRequest stop = StopRequest.install()) {
            TopicWatcher<? extends SpecificRecord> watcher = new TopicWatcher<>(kafka.clientProperties(),
                    topic.name(FrontierClient.Topics.defaults()), topic.type, fromBeginning);
            try {
                while (!stop.requested() && System.nanoTime() < deadline && (max == null || printed < max) && !cli.out.checkError()) {
                    for (SpecificRecord r : watcher.poll(POLL)) {
                        if (graphId != null && !graphId.equals(String.valueOf(r.get(r.getSchema().getField("graphId").pos())))) continue;
                        RecordJson.writeLine(r, out);
                        if (max != null && ++printed >= max) break;
                    }
                }
            } finally {
                watcher.close(CLOSE);   // promptly, whatever the broker's state
            }
        }
        return FrontierCli.OK;
    }

    static final class TopicName implements picocli.CommandLine.ITypeConverter<Topic> {
        @Override
        public Topic convert(String s) {
            try {
                return Topic.valueOf(s.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + s + "' is not an output topic (results, errors, latency or status)");
            }
        }
    }
}
