package org.frontiergraph.bench.kafka;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.frontiergraph.client.FrontierClient;

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

    static final String USAGE = String.join("\n",
            "usage: KafkaBench [--bootstrap HOST:PORT [--start-worker]] [--worker-jvm] [--worker-heap 8g]",
            "                  [--graphs ny,kron20] [--backend auto|gpu|cpu] [--queries 100] [--warmup 20] [--burst 1000]",
            "                  [--updates 10000] [--query-every 1000] [--load-runs 3] [--verify 2] [--budget-s 20]",
            "                  [--timeout-s 300] [--seed 42] [--scenarios " + String.join(",", SCENARIOS) + "]",
            "                  [--out FILE.md] [--command TEXT] [--compression none|lz4|zstd|snappy|gzip]",
            "  scenarios: load (snapshot loads), closed (one query at a time), burst (SUMMARY queries in flight at once),",
            "  updates (single-edge re-weights, one SSSP SUMMARY query per --query-every), update-then-query (a re-weight",
            "  then a query, repeated), edge-updates (as updates, but alternately an edge removed and one added)",
            "  without --bootstrap: an embedded Kafka broker (KRaft) and a worker are started; graphs as GpuBench names",
            "  them (ny = ../shared/datasets/USA-road-d.NY.gr.gz or $FRONTIER_DATASETS, kronSCALE, uniformSCALE)");

    /** A bad command line; the message says what. */
    static final class UsageException extends IllegalArgumentException {
        UsageException(String message) { super(message); }
    }

    static BenchOptions parse(String[] args) {
        String bootstrap = null, workerHeap = "8g", backend = "auto", command = null;
        String compression = FrontierClient.DEFAULT_COMPRESSION;
        boolean startWorker = false, workerJvm = false;
        List<String> graphs = List.of("ny", "kron20");
        int queries = 100, warmup = 20, burst = 1000, updates = 10_000, queryEvery = 1000, loadRuns = 3, verify = 2;
        int budgetS = 20, timeoutS = 300;
        long seed = 42;
        Set<String> scenarios = new LinkedHashSet<>(SCENARIOS);
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--start-worker" -> startWorker = true;
                case "--worker-jvm" -> workerJvm = true;
                case "--help", "-h" -> throw new UsageException("");
                default -> {
                    if (i + 1 >= args.length) throw new UsageException(a + " needs a value");
                    String v = args[++i];
                    switch (a) {
                        case "--bootstrap" -> bootstrap = v;
                        case "--worker-heap" -> workerHeap = v;
                        case "--graphs" -> graphs = names(v);
                        case "--backend" -> {
                            backend = v.toLowerCase(Locale.ROOT);
                            if (!Set.of("auto", "gpu", "cpu").contains(backend)) throw new UsageException("--backend auto|gpu|cpu");
                        }
                        case "--queries" -> queries = positive(a, v, 1);
                        case "--warmup" -> warmup = positive(a, v, 0);
                        case "--burst" -> burst = positive(a, v, 1);
                        case "--updates" -> updates = positive(a, v, 1);
                        case "--query-every" -> queryEvery = positive(a, v, 1);
                        case "--load-runs" -> loadRuns = positive(a, v, 1);
                        case "--verify" -> verify = positive(a, v, 0);
                        case "--budget-s" -> budgetS = positive(a, v, 1);
                        case "--timeout-s" -> timeoutS = positive(a, v, 1);
                        case "--seed" -> seed = Long.parseLong(v);
                        case "--scenarios" -> {
                            scenarios = new LinkedHashSet<>();
                            for (String s : names(v)) {
                                if (!SCENARIOS.contains(s)) throw new UsageException("unknown scenario '" + s + "' (" + String.join(",", SCENARIOS) + ")");
                            }
                            for (String s : SCENARIOS) if (names(v).contains(s)) scenarios.add(s);
                        }
                        case "--out" -> out = Path.of(v);
                        case "--command" -> command = v;
                        case "--compression" -> {
                            compression = v.toLowerCase(Locale.ROOT);
                            if (!Set.of("none", "lz4", "zstd", "snappy", "gzip").contains(compression)) {
                                throw new UsageException("--compression none|lz4|zstd|snappy|gzip");
                            }
                        }
                        default -> throw new UsageException("unknown option " + a);
                    }
                }
            }
        }
        if (startWorker && bootstrap == null) throw new UsageException("--start-worker goes with --bootstrap (without one a worker is always started)");
        if (graphs.isEmpty()) throw new UsageException("--graphs names no graph");
        if (command == null) command = "KafkaBench " + String.join(" ", args);
        return new BenchOptions(bootstrap, startWorker, workerJvm, workerHeap, graphs, backend, queries, warmup, burst,
                updates, queryEvery, loadRuns, verify, budgetS, timeoutS, seed, Set.copyOf(scenarios), out, command.trim(),
                compression);
    }

    /** Whether this run starts a worker (embedded broker, or --start-worker). */
    boolean startsWorker() { return bootstrap == null || startWorker; }

    boolean runs(String scenario) { return scenarios.contains(scenario); }

    private static List<String> names(String csv) {
        List<String> out = new ArrayList<>();
        for (String s : csv.split(",")) if (!s.isBlank()) out.add(s.trim().toLowerCase(Locale.ROOT));
        return out;
    }

    private static int positive(String option, String value, int min) {
        try {
            int n = Integer.parseInt(value.replace("_", ""));
            if (n < min) throw new UsageException(option + " must be at least " + min);
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number, got '" + value + "'");
        }
    }
}
