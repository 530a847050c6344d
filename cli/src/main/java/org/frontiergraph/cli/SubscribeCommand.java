package org.frontiergraph.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.worker.subscription.StandingForm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier subscribe}: publishes a subscription (a standing query) and prints each push as one line of
 * JSON ({@link JsonAnswer#writePush}) until Ctrl-C or SIGTERM, which publishes its cancel, prints the last push (END)
 * and exits 0; or until the subscription ends otherwise: exit 0 when it was cancelled (status OK), 1 with the
 * failure's status and reason on stderr. A push that shows an earlier one was missed is not printed: the command
 * subscribes again (a new complete answer, INITIAL) and says so on stderr. Redelivered pushes are skipped.
 */
@Command(name = "subscribe", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Subscribe to a standing query: print its answer, then every change to it, one JSON line per push, "
                + "until Ctrl-C (which cancels the subscription) or the subscription ends.",
        footer = {"", "Each line: subscriptionId, graphId, reason (INITIAL, UPDATE, RESYNC, END), sequence, graphVersion, delta,",
                "status, algorithm, source, vertexCount, then the payload in your vertex ids (docs/contract.md, Subscription).",
                "", "Examples:",
                "  ./frontier subscribe --graph ny --algorithm sssp --source 1",
                "  ./frontier subscribe --graph ny --algorithm sssp --source 1 --targets 5000,9000 --min-interval-ms 500",
                "  ./frontier subscribe --graph roads --algorithm sssp --source 'Main & 1st'   (a named graph: pushes carry \"names\")",
                "  ./frontier subscribe --graph ny --algorithm mst --mode summary --id ny-mst-watch",
                "  ./frontier subscribe --graph routers --algorithm cc      # componentChanges: which components split or merged"})
final class SubscribeCommand implements Callable<Integer> {
    /**
     * How long a stop waits for the broker to take the cancel; for the last push (END), counted from the stop; and to
     * close each client: within 5 s of SIGTERM the command has exited, whatever the broker's state.
     */
    static final Duration CANCEL_WAIT = Duration.ofMillis(1500);
    static final Duration END_WAIT = Duration.ofMillis(3500);
    static final Duration CLOSE = Duration.ofMillis(500);
    private static final Duration POLL = Duration.ofMillis(200);

    @ParentCommand
    FrontierCli cli;

    @Option(names = "--graph", required = true, paramLabel = "ID", description = "The graph's id.")
    String graphId;

    @Option(names = "--algorithm", required = true, paramLabel = "ALGORITHM", converter = Converters.SubscribableAlgorithm.class,
            completionCandidates = Converters.SubscribableNames.class,
            description = "What to keep up to date: ${COMPLETION-CANDIDATES}.")
    Algorithm algorithm;

    @Option(names = "--source", paramLabel = "V",
            description = "The source vertex (BFS, SSSP), in the graph's own ids, or its name on a named graph.")
    String source;

    @Option(names = "--names", description = "The vertices given are names, even where they look like integers (one that "
            + "is not an integer is a name anyway), and every push comes with the vertices' names (also MST, CC).")
    boolean names;

    @Option(names = "--mode", paramLabel = "delta|full|targets|summary", converter = Converters.SubscriptionModeName.class,
            description = "delta: the whole answer, then only what changed (default); full: the whole answer each time; "
                    + "targets: --targets only; summary: counts and extremes.")
    ResultMode mode;

    @Option(names = "--targets", paramLabel = "V", split = ",",
            description = "Follow only these vertices (implies --mode targets): ids, or names on a named graph.")
    List<String> targets = new ArrayList<>();

    @Option(names = "--min-interval-ms", paramLabel = "N", converter = Converters.Millis.class, defaultValue = "0",
            description = "At most one push per N ms; changes in between come together (default: ${DEFAULT-VALUE}, every change).")
    int minIntervalMs;

    @Option(names = "--id", paramLabel = "ID",
            description = "The subscription's id (default: cli-<random>); subscribing with an id in use replaces that subscription.")
    String id;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class, defaultValue = "120",
            description = "How long to wait for the first push (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws IOException {
        Subscription s = checkOptions();
        KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);
        try (StopRequest stop = StopRequest.install()) {
            return follow(s, stop);
        }
    }

    /** Builds the subscription, refusing options that cannot work together before anything is sent. */
    Subscription checkOptions() {
        StandingForm<?> form = StandingForm.ALL.get(algorithm);
        boolean tree = form.fromSource();
        String algo = algorithm.name().toLowerCase(Locale.ROOT);
        for (String bad : java.util.Arrays.asList(VertexArgs.badId("--source", java.util.Collections.singletonList(source)),
                VertexArgs.badId("--targets", targets))) {
            if (bad != null) throw usage(bad);
        }
        if (tree && source == null) throw usage("--algorithm " + algo + " needs --source V");
        if (!tree && source != null) {
            throw usage("--source goes with " + forms(StandingForm::fromSource) + "; " + algo + " is of the whole graph, with no source");
        }
        ResultMode m = mode != null ? mode : targets.isEmpty() ? ResultMode.DELTA : ResultMode.TARGETS;
        if (m == ResultMode.TARGETS && !form.supports(ResultMode.TARGETS)) {
            throw usage("--mode targets follows vertices: " + forms(f -> f.supports(ResultMode.TARGETS)) + ", not " + algo);
        }
        if (m == ResultMode.TARGETS && targets.isEmpty()) throw usage("--mode targets needs --targets V,V,...");
        if (m != ResultMode.TARGETS && !targets.isEmpty()) throw usage("--targets goes with --mode targets, not " + lower(m));
        if (id != null && id.isBlank()) throw usage("--id: an empty subscription id");
        VertexArgs v = VertexArgs.of(source, targets, names);
        return Subscription.newBuilder()
                .setSubscriptionId(id != null ? id : "cli-" + UUID.randomUUID())
                .setGraphId(graphId).setAlgorithm(algorithm).setSource(v.source()).setTargets(v.targets())
                .setSourceName(v.sourceName()).setTargetNames(v.targetNames()).setWithNames(v.byName())
                .setResultMode(m).setMinIntervalMs(minIntervalMs).build();
    }

    /** The algorithms whose standing form passes {@code test}, as a phrase ({@code bfs, sssp or cc}), in the contract's order. */
    private static String forms(Predicate<StandingForm<?>> test) {
        return Converters.names(Arrays.stream(Algorithm.values()).filter(a -> StandingForm.ALL.containsKey(a)
                && test.test(StandingForm.ALL.get(a))).map(a -> a.name().toLowerCase(Locale.ROOT)).toList(), " or ");
    }

    /** Subscribes and prints pushes until a stop is requested (then cancels) or the subscription ends. */
    int follow(Subscription s, StopRequest stop) throws IOException {
        Writer out = new OutputStreamWriter(cli.out, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(cli.err, StandardCharsets.UTF_8), true);
        FrontierClient client = new FrontierClient(kafka.clientProperties(), FrontierClient.Topics.defaults());
        SubscriptionFeed feed = null;
        try {
            feed = client.subscribe(s);
            return follow(s, stop, client, feed, out, err);
        } finally {
            // promptly, whatever the broker's state: a cancel it never acknowledged is not waited for again
            if (feed != null) feed.close(CLOSE);
            client.close(CLOSE);
        }
    }

    private int follow(Subscription s, StopRequest stop, FrontierClient client, SubscriptionFeed feed, Writer out,
                       PrintWriter err) throws IOException {
        String sid = s.getSubscriptionId();
        String where = kafka.bootstrapServers();
        err.printf(Locale.ROOT, "frontier subscribe: subscription %s on graph '%s' (%s%s, %s); Ctrl-C cancels it%n", sid,
                s.getGraphId(), s.getAlgorithm(), s.getSourceName() != null ? " from '" + s.getSourceName() + "'" : s.getSource() == null ? "" : " from " + s.getSource(),
                lower(s.getResultMode()));
        long firstDeadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        long endDeadline = 0;
        boolean cancelled = false, answered = false, resubscribed = false;
        while (true) {
            if (!cancelled && (stop.requested() || cli.out.checkError())) {
                endDeadline = System.nanoTime() + END_WAIT.toNanos();
                String why = stop.requested() ? stop.why() : "output closed";
                if (!client.cancel(s.getGraphId(), sid, CANCEL_WAIT)) {
                    err.println("frontier subscribe: " + why + ": the broker at " + where + " did not acknowledge the cancel of " + sid
                            + " within " + CANCEL_WAIT.toMillis() + " ms; exiting without it (the subscription stays until cancelled)");
                    return FrontierCli.OK;
                }
                cancelled = true;
                err.println("frontier subscribe: " + why + ": cancelled " + sid);
            }
            if (cancelled && System.nanoTime() > endDeadline) {
                err.println("frontier subscribe: no last push (END) within " + END_WAIT.toMillis() + " ms; the cancel was published");
                return FrontierCli.OK;
            }
            if (!answered && !cancelled && System.nanoTime() > firstDeadline) {
                client.cancel(s.getGraphId(), sid, CANCEL_WAIT);
                throw new CliFailure("timed out after " + timeoutSeconds + " s waiting for the first answer to subscription "
                        + sid + " (is a worker running on " + where + "?); the subscription was cancelled");
            }
            for (SubscriptionFeed.Push p : feed.poll(POLL)) {
                answered = true;
                switch (p.outcome()) {
                    case REPEATED -> { continue; }
                    case GAP -> {
                        if (!resubscribed && !cancelled) {
                            err.printf(Locale.ROOT, "frontier subscribe: push #%d (%s) shows an earlier push was missed; "
                                    + "subscribing again for a complete answer%n", p.sequence(), p.reason());
                            client.publishSubscription(s);
                            resubscribed = true;
                        }
                        continue;
                    }
                    default -> {
                        if (p.reason() == PushReason.INITIAL || p.reason() == PushReason.RESYNC) resubscribed = false;
                    }
                }
                JsonAnswer.writePush(p.chunks(), out);
                if (p.end()) {
                    if (p.status() == ResultStatus.OK) return FrontierCli.OK;
                    throw new CliFailure("subscription " + sid + " ended: " + p.status() + ": " + p.error());
                }
            }
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(kafka.command.commandLine(), message);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
