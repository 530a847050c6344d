package org.frontiergraph.bench.kafka;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.client.FrontierClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * KafkaBench's command line. Every option has a default, so {@code KafkaBench} alone runs NY and kron20 through an
 * embedded broker and a worker in this JVM.
 *
 * @param bootstrap    a running Kafka cluster; null: start the embedded broker (and a worker)
 * @param startWorker  with {@code bootstrap}: start a worker against it too (without: one is assumed running)
 * @param workerJvm    start the worker as a child JVM (this JVM's runtime and class path) instead of in this JVM
 * @param workerHeap   the child JVM's -Xmx
 * @param graphs       GpuBench's graph names: ny, kronSCALE, uniformSCALE
 * @param backend      auto, gpu or cpu: the started worker's frontier.backend; with an external worker, put on each
 *                     query unless auto
 * @param queries      closed loop: queries per algorithm and mode; update-then-query: repetitions
 * @param warmup       closed loop: untimed queries of each algorithm and mode, all rows' before any is timed
 * @param burst        burst: SUMMARY queries in flight at once, per algorithm
 * @param updates      sustained updates: single-edge re-weights (updates), or edges alternately removed and added
 *                     (edge-updates), each at most this many (the budget may size a run down)
 * @param queryEvery   sustained updates (both kinds): one query per this many updates
 * @param loadRuns     snapshot load: timed loads of each graph (each a new version)
 * @param verify       answers per table row checked against the CPU engine (every answer's status and version
 *                     are checked)
 * @param budgetS      seconds a closed-loop cell, a burst, the sustained updates or update-then-query may take
 *                     (queries stop early, the burst and the update run are sized down, and the table says so)
 * @param timeoutS     the longest wait for one answer or status before the run fails
 * @param seed         sources, targets, re-weighted edges and weights
 * @param scenarios    which tables to produce (the snapshot is always published once: the others need it)
 * @param out          where to write the markdown table (besides stdout); null: stdout only
 * @param command      the command line to record; null: this program's arguments
 * @param compression  the client's producer codec (compression.type) for snapshot chunks and its other records
 */
record BenchOptions(String bootstrap, boolean startWorker, boolean workerJvm, String workerHeap, List<String> graphs,
                    String backend, int queries, int warmup, int burst, int updates, int queryEvery, int loadRuns,
                    int verify, int budgetS, int timeoutS, long seed, Set<String> scenarios, Path out, String command,
                    String compression) {

    /** In the order they run: edge-updates last, as it changes which edges exist. */
    static final List<String> SCENARIOS = List.of("load", "closed", "burst", "updates", "update-then-query", "edge-updates");

    static BenchOptions parse(String[] args) {
        return BenchCli.parse(new Cli(), args);
    }

    /** Where the benchmark runs: an embedded broker and worker, or a running cluster. Shared with SubscriptionBench. */
    static final class Cluster {
        @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "a running Kafka cluster (default: start "
                + "an embedded broker (KRaft) and a worker in this JVM)")
        String bootstrap;
        @Option(names = "--start-worker", description = "with --bootstrap: start a worker against it too")
        boolean startWorker;
        @Option(names = "--worker-jvm", description = "start the worker as a child JVM instead of in this JVM")
        boolean workerJvm;
        @Option(names = "--worker-heap", paramLabel = "SIZE", description = "the child JVM's -Xmx")
        String workerHeap = "8g";

        void check() {
            if (startWorker && bootstrap == null) {
                throw new IllegalArgumentException("--start-worker goes with --bootstrap (without one a worker is always started)");
            }
        }
    }

    @Command(name = "KafkaBench", description = "The end-to-end benchmark through Kafka: snapshot loads, queries, bursts "
            + "and updates, every answer checked.", footer = {"",
            "Scenarios: load (snapshot loads), closed (one query at a time), burst (SUMMARY queries in flight at once),",
            "updates (single-edge re-weights, one SSSP SUMMARY query per --query-every), update-then-query (a re-weight",
            "then a query, repeated), edge-updates (as updates, but alternately an edge removed and one added)."})
    static final class Cli implements BenchCli.Command<BenchOptions> {
        @Mixin
        Cluster cluster;
        @Mixin
        BenchCli.Graphs graphs;
        @Mixin
        BenchCli.Backend backend;
        @Option(names = "--queries", paramLabel = "N", description = "closed loop: queries per algorithm and mode; "
                + "update-then-query: repetitions")
        int queries = 100;
        @Option(names = "--warmup", paramLabel = "N", description = "closed loop: untimed queries of each algorithm and mode")
        int warmup = 20;
        @Option(names = "--burst", paramLabel = "N", description = "burst: SUMMARY queries in flight at once, per algorithm")
        int burst = 1000;
        @Option(names = "--updates", paramLabel = "N", description = "sustained updates: at most this many")
        int updates = 10_000;
        @Option(names = "--query-every", paramLabel = "N", description = "sustained updates: one query per this many updates")
        int queryEvery = 1000;
        @Option(names = "--load-runs", paramLabel = "N", description = "snapshot load: timed loads of each graph")
        int loadRuns = 3;
        @Option(names = "--verify", paramLabel = "N", description = "answers per table row checked against the CPU engine")
        int verify = 2;
        @Option(names = "--budget-s", paramLabel = "S", description = "seconds a closed-loop cell, a burst, the sustained "
                + "updates or update-then-query may take")
        int budgetS = 20;
        @Option(names = "--timeout-s", paramLabel = "S", description = "the longest wait for one answer or status")
        int timeoutS = 300;
        @Option(names = "--seed", paramLabel = "N", description = "sources, targets, re-weighted edges and weights")
        long seed = 42;
        @Option(names = "--scenarios", paramLabel = "S,S", description = "which tables to produce")
        String scenarios = String.join(",", SCENARIOS);
        @Mixin
        BenchCli.Output output;
        @Option(names = "--compression", paramLabel = "none|lz4|zstd|snappy|gzip", description = "the client's producer codec")
        String compression = FrontierClient.DEFAULT_COMPRESSION;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny,kron20", "--backend", "auto");
        }

        @Override
        public BenchOptions options(String[] args) {
            cluster.check();
            at("--queries", queries, 1);
            at("--warmup", warmup, 0);
            at("--burst", burst, 1);
            at("--updates", updates, 1);
            at("--query-every", queryEvery, 1);
            at("--load-runs", loadRuns, 1);
            at("--verify", verify, 0);
            at("--budget-s", budgetS, 1);
            at("--timeout-s", timeoutS, 1);
            List<String> named = BenchCli.names(scenarios);
            for (String s : named) {
                if (!SCENARIOS.contains(s)) throw new IllegalArgumentException("unknown scenario '" + s + "' (" + String.join(",", SCENARIOS) + ")");
            }
            Set<String> chosen = new LinkedHashSet<>();
            for (String s : SCENARIOS) if (named.contains(s)) chosen.add(s);
            String codec = compression.toLowerCase(Locale.ROOT);
            if (!Set.of("none", "lz4", "zstd", "snappy", "gzip").contains(codec)) {
                throw new IllegalArgumentException("--compression none|lz4|zstd|snappy|gzip");
            }
            return new BenchOptions(cluster.bootstrap, cluster.startWorker, cluster.workerJvm, cluster.workerHeap,
                    graphs.graphs(), backend.backend(), queries, warmup, burst, updates, queryEvery, loadRuns, verify, budgetS,
                    timeoutS, seed, Set.copyOf(chosen), output.out(), output.command("KafkaBench", args).trim(), codec);
        }
    }

    /** @throws IllegalArgumentException when {@code value} is below {@code min} */
    static void at(String option, long value, long min) {
        if (value < min) throw new IllegalArgumentException(option + " must be at least " + min);
    }

    /** Whether this run starts a worker (embedded broker, or --start-worker). */
    boolean startsWorker() { return bootstrap == null || startWorker; }

    boolean runs(String scenario) { return scenarios.contains(scenario); }
}
