package org.frontiergraph.bench.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.Answers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Standing queries through Kafka, as a subscriber sees them: one worker (the embedded broker and a worker in this JVM,
 * or {@code --bootstrap} a running cluster), one graph loaded, N SSSP subscriptions in DELTA mode from distinct seeded
 * sources, every INITIAL answer awaited, then single-edge re-weights ({@link Reweights}) published at a target rate for
 * a duration. A consumer of the results topic ({@link PushTracker}) applies every push to its subscription's
 * SubscriptionView as it arrives. With {@code --warmup-s S}, S seconds of re-weights at the same rate go first,
 * untimed: the bench waits until they are applied and their pushes read, then times the others from the version they
 * reached (steady state, without the worker's first compilations; their pushes are applied but not counted).
 *
 * <p><b>Latency.</b> Update k (graph version base + k) changed subscription s when the first push of s with a version
 * of at least base + k lists the head of k's re-weighted arc (either end on an undirected graph) among the vertices
 * whose distance or parent it changed: a re-weight that changes an SSSP answer always changes its head's distance or
 * parent. For each such pair: the time from handing update k to the producer to reading that push. Per update: the
 * time until every subscription it changed held such a push (the slowest). Updates that changed nothing are counted,
 * not timed. (Changes that cancel out within one push, or another update of the same window changing the same vertex,
 * can hide or add a pair; at these rates such coincidences are rare.)
 *
 * <p><b>Checks.</b> Every push applies in sequence (no gap, status OK); after the last update, {@code --verify}
 * subscriptions' views are compared with fresh GraphQuery FULL answers on the last version (distances exactly, parents
 * by {@link SsspVerifier}), and those answers with the CPU engine here; at the end every subscription is cancelled and
 * must end with an END push. Prints a markdown table with the date, the machine and the command, and appends it to
 * {@code --out}. Exit status 0 when every check passed, 1 when not, 2 on a bad command line.
 *
 * <pre>java -cp ... org.frontiergraph.bench.kafka.SubscriptionBench [--graph ny] [--subscriptions 100] [--rate 1000]
 *      [--seconds 30] [--warmup-s 0] [--backend auto|gpu|cpu] [--bootstrap HOST:PORT [--start-worker]] [--verify 5]
 *      [--out FILE.md]</pre>
 */
public final class SubscriptionBench {
    private SubscriptionBench() {}

    /** The command line. */
    record Options(String graph, int subscriptions, int rate, int seconds, String backend, String bootstrap,
                   boolean startWorker, boolean workerJvm, String workerHeap, int verify, int timeoutS, long seed, Path out,
                   String command, int warmupS, int readers) {
        static Options parse(String[] args) {
            return BenchCli.parse(new Cli(), args);
        }

        /** The cluster part as KafkaBench's options, for {@link BenchCluster}. */
        BenchOptions cluster() {
            List<String> a = new ArrayList<>(List.of("--backend", backend, "--timeout-s", Integer.toString(timeoutS),
                    "--worker-heap", workerHeap, "--graphs", graph, "--seed", Long.toString(seed)));
            if (bootstrap != null) a.addAll(List.of("--bootstrap", bootstrap));
            if (startWorker) a.add("--start-worker");
            if (workerJvm) a.add("--worker-jvm");
            return BenchOptions.parse(a.toArray(String[]::new));
        }
    }

    @Command(name = "SubscriptionBench", description = "DELTA SSSP subscriptions through Kafka under single-edge re-weights "
            + "at a target rate: push latency and bytes, every push applied and checked.", footer = {"",
            "--graph as GpuBench names graphs (ny = ../shared/datasets/USA-road-d.NY.gr.gz or $FRONTIER_DATASETS,",
            "kronSCALE, uniformSCALE, gridSIDE)."})
    static final class Cli implements BenchCli.Command<Options> {
        @Option(names = "--graph", paramLabel = "NAME", description = "the graph, as GpuBench names it")
        String graph = "ny";
        @Option(names = "--subscriptions", paramLabel = "N", description = "DELTA SSSP subscriptions from distinct sources")
        int subscriptions = 100;
        @Option(names = "--rate", paramLabel = "N", description = "re-weights a second")
        int rate = 1000;
        @Option(names = "--seconds", paramLabel = "S", description = "how long the re-weights go on (timed)")
        int seconds = 30;
        @Option(names = "--warmup-s", paramLabel = "S", description = "untimed re-weights at the same rate first")
        int warmupS;
        @Option(names = "--readers", paramLabel = "N", description = "consumers (one thread each) reading the pushes, "
                + "each a share of the results topic's partitions (default: one per partition, at most half the cores)")
        int readers = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        @Mixin
        BenchCli.Backend backend;
        @Mixin
        BenchOptions.Cluster cluster;
        @Option(names = "--verify", paramLabel = "N", description = "subscriptions checked against fresh FULL answers at the end")
        int verify = 5;
        @Option(names = "--timeout-s", paramLabel = "S", description = "the longest wait for one answer or status")
        int timeoutS = 300;
        @Option(names = "--seed", paramLabel = "N", description = "sources and re-weights")
        long seed = 42;
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--backend", "auto");
        }

        @Override
        public Options options(String[] args) {
            BenchOptions.at("--subscriptions", subscriptions, 1);
            BenchOptions.at("--rate", rate, 1);
            BenchOptions.at("--seconds", seconds, 1);
            BenchOptions.at("--warmup-s", warmupS, 0);
            BenchOptions.at("--readers", readers, 1);
            BenchOptions.at("--verify", verify, 0);
            BenchOptions.at("--timeout-s", timeoutS, 1);
            Options o = new Options(graph.trim().toLowerCase(Locale.ROOT), subscriptions, rate, seconds, backend.backend(),
                    cluster.bootstrap, cluster.startWorker, cluster.workerJvm, cluster.workerHeap, Math.min(verify, subscriptions),
                    timeoutS, seed, output.out(), output.command("SubscriptionBench", args), warmupS, readers);
            o.cluster();   // KafkaBench's rules for the cluster options
            return o;
        }
    }

    /** What a run measured. Latencies in ms; NaN where nothing was measured. */
    record Result(String graph, int vertices, long edges, boolean directed, String backend, int subscriptions,
                  double initialSeconds, long fullBytes, int fullChunks, int updates, int targetRate, double publishSeconds,
                  double appliedSeconds, long updatePushes, long deltaPushes, long completePushes, long resyncPushes,
                  double listedMedian, long deltaBytes, double deltaBytesP50, double deltaBytesP99, double deltaBytesMax,
                  long pairs, double pairP50, double pairP99, double pairMax, long changingUpdates, double updateP50,
                  double updateP99, double updateMax, double affectedMean, double statusP50, double statusP99, double lagP50,
                  double lagP99, int verified, int checked, int ended, String pairTail,
                  List<String> failures) {
        boolean ok() { return failures.isEmpty(); }

        /** What FULL-mode subscriptions would have received for the same pushes. */
        long fullModeBytes() { return updatePushes * fullBytes; }

        /** This result with the cancellations' outcome and every failure of the run. */
        Result finish(int ended, List<String> failures) {
            return new Result(graph, vertices, edges, directed, backend, subscriptions, initialSeconds, fullBytes, fullChunks,
                    updates, targetRate, publishSeconds, appliedSeconds, updatePushes, deltaPushes, completePushes, resyncPushes,
                    listedMedian, deltaBytes, deltaBytesP50, deltaBytesP99, deltaBytesMax, pairs, pairP50, pairP99, pairMax,
                    changingUpdates, updateP50, updateP99, updateMax, affectedMean, statusP50, statusP99, lagP50, lagP99, verified,
                    checked, ended, pairTail, List.copyOf(failures));
        }
    }

    /** A run's result and its markdown. */
    record Outcome(Result result, String markdown) {}

    public static void main(String[] args) {
        BenchMain.main("SubscriptionBench", args, Cli::new, o -> {
            Outcome r = run(o);
            return new BenchMain.Result(r.markdown(), r.result().ok());
        });
    }

    static Outcome run(Options o) throws IOException {
        FrontierCodec.trust();
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        String loadBefore = Machine.loadAverage();
        String runId = "sb" + Long.toString(System.currentTimeMillis(), 36);
        GpuBench.Edges e = GpuBench.edges(o.graph());
        if (e == null) throw new IllegalStateException(o.graph() + ": its dataset was not found (../shared/datasets or FRONTIER_DATASETS)");
        BenchOptions bo = o.cluster();
        log("starting %s", o.bootstrap() == null ? "an embedded broker and a worker" : "on " + o.bootstrap());
        Result result;
        String where, steps;
        try (BenchCluster cluster = BenchCluster.start(bo);
             FrontierClient client = new FrontierClient(cluster.bootstrapServers());
             BenchProducer producer = new BenchProducer(client.kafkaSettings(), client.topics().graphs());
             OutputTracker outputs = new OutputTracker(client.kafkaSettings(), client.topics(), runId, Duration.ofSeconds(120));
             PushTracker pushes = new PushTracker(client.kafkaSettings(), client.topics().results(), Duration.ofSeconds(120), o.readers())) {
            where = cluster.description() + "; pushes read by " + pushes.readers() + " consumer thread(s)";
            log("%s; ready after %.1f s", where, (System.nanoTime() - t0) / 1e9);
            result = new Run(o, e, new GraphBench.Io(cluster, client, producer, outputs, runId), pushes).go();
            steps = cluster.flushSteps();
        }
        String markdown = markdown(o, result, where, started, (System.nanoTime() - t0) / 1e9, loadBefore, Machine.loadAverage());
        if (!result.pairTail().isEmpty()) markdown += "\nWhere the pairs' time went, " + result.pairTail() + ".\n";
        if (!steps.isEmpty()) markdown += "\nThe worker's flush steps over the whole run (its meters; the warm-up and the INITIAL answers included): " + steps + ".\n";
        if (o.out() != null) {
            Path parent = o.out().toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(o.out(), markdown + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return new Outcome(result, markdown);
    }

    /** One run on one graph. */
    private static final class Run {
        final Options o;
        final GpuBench.Edges edges;
        final GraphBench.Io io;
        final PushTracker pushes;
        final String graphId;
        final int first;
        final Duration timeout;
        final List<String> failures = new ArrayList<>();
        final CsrGraph loaded;

        Run(Options o, GpuBench.Edges edges, GraphBench.Io io, PushTracker pushes) {
            this.o = o;
            this.edges = edges;
            this.io = io;
            this.pushes = pushes;
            this.graphId = "sbench-" + o.graph();
            this.first = edges.firstVertexId();
            this.timeout = Duration.ofSeconds(o.timeoutS());
            this.loaded = GraphBuilder.build(edges.edges());
        }

        Result go() {
            // (1) the graph
            long version = System.currentTimeMillis();
            CompletableFuture<OutputTracker.Loaded> done = io.outputs().expectVersion(graphId, version);
            long l0 = System.nanoTime();
            io.client().publishChunks(FrontierClient.chunks(graphId, version, Snapshots.of(edges.edges()), first, true,
                    FrontierClient.CHUNK_EDGES), null);
            GraphStatus status = await(done, "graph " + graphId + " version " + version + " loaded").status();
            if (status == null) throw new IllegalStateException("graph " + graphId + " version " + version + " was loaded before it was published");
            if (status.getVertexCount() != loaded.vertexCount() || status.getEdgeCount() != loaded.edgeCount()) {
                failures.add("the worker holds " + status.getVertexCount() + " vertices and " + status.getEdgeCount()
                        + " edges, the graph built here " + loaded.vertexCount() + " and " + loaded.edgeCount());
            }
            log("%s: %,d vertices, %,d edges loaded on %s in %.1f s", o.graph(), status.getVertexCount(), status.getEdgeCount(),
                    status.getBackend(), (System.nanoTime() - l0) / 1e9);

            // (2) the subscriptions, every INITIAL answer awaited
            int[] sources = sources(o.subscriptions());
            List<PushTracker.Sub> subs = new ArrayList<>();
            long s0 = System.nanoTime();
            for (int i = 0; i < sources.length; i++) {
                PushTracker.Sub s = pushes.register(io.runId() + "-sub-" + i, sources[i]);
                subs.add(s);
                io.producer().send(graphId, Subscription.newBuilder().setSubscriptionId(s.id).setGraphId(graphId)
                        .setAlgorithm(Algorithm.SSSP).setSource(sources[i] + first).setResultMode(ResultMode.DELTA).build());
            }
            long[] fullBytes = new long[subs.size()];
            int fullChunks = 0;
            for (int i = 0; i < subs.size(); i++) {
                PushTracker.Push p = awaitPush(subs.get(i).initial, "the INITIAL answer of " + subs.get(i).id);
                fullBytes[i] = p.bytes();
                fullChunks = Math.max(fullChunks, p.chunks());
                if (p.version() != version) failures.add(subs.get(i).id + ": INITIAL on version " + p.version() + ", expected " + version);
            }
            double initialSeconds = (System.nanoTime() - s0) / 1e9;
            log("%d subscriptions: every INITIAL answer read %.1f s after the first was published", subs.size(), initialSeconds);

            // (3) single-edge re-weights at the target rate: --warmup-s of them untimed (the worker compiles its repairs),
            // until applied and every push read, then the timed ones from the version they reached
            Reweights reweights = new Reweights(loaded, version, first, o.seed() ^ 0x5EED);
            int warm = (int) Math.min(Integer.MAX_VALUE - 8, (long) o.rate() * o.warmupS());
            if (warm > 0) {
                CompletableFuture<OutputTracker.Loaded> warmed = io.outputs().expectVersion(graphId, version + warm);
                long w0 = System.nanoTime();
                Future<RecordMetadata> lastWarm = null;
                for (int i = 0; i < warm; i++) {
                    long wait = w0 + (long) (i * 1e9 / o.rate()) - System.nanoTime();
                    if (wait > 0) LockSupport.parkNanos(wait);
                    lastWarm = io.producer().send(graphId, reweights.next(graphId));
                }
                BenchProducer.acknowledged(lastWarm, timeout);
                await(warmed, "the " + warm + " warm-up re-weights applied (version " + (version + warm) + ")");
                long quiet = System.nanoTime() + timeout.toNanos();
                while (System.nanoTime() - pushes.lastPushNanos() < 1_000_000_000L && System.nanoTime() < quiet) sleep(100);
                version += warm;
                log("%,d warm-up re-weights applied; timing from version %d on", warm, version);
            }
            int n = (int) Math.min(Integer.MAX_VALUE - 8, (long) o.rate() * o.seconds());
            long[] sent = new long[n];
            int[] tail = new int[n], head = new int[n];
            Map<Long, Long> statusTimes = io.outputs().timeVersions(graphId);
            CompletableFuture<OutputTracker.Loaded> applied = io.outputs().expectVersion(graphId, version + n);
            long start = System.nanoTime();
            Future<RecordMetadata> last = null;
            for (int i = 0; i < n; i++) {
                long due = start + (long) (i * 1e9 / o.rate());
                long wait = due - System.nanoTime();
                if (wait > 0) LockSupport.parkNanos(wait);
                GraphUpdate u = reweights.next(graphId);
                tail[i] = PackedArrays.ints(u.getReweighted().getSources()).get(0) - first;
                head[i] = PackedArrays.ints(u.getReweighted().getTargets()).get(0) - first;
                sent[i] = System.nanoTime();
                last = io.producer().send(graphId, u);
                if (i > 0 && i % (o.rate() * 5) == 0) log("%,d of %,d re-weights published", i, n);
            }
            BenchProducer.acknowledged(last, timeout);
            double publishSeconds = (System.nanoTime() - start) / 1e9;
            OutputTracker.Loaded done2 = await(applied, "the " + n + " re-weights applied (version " + (version + n) + ")");
            double appliedSeconds = (done2.nanos() - start) / 1e9;
            long last2 = version + n;
            log("%,d re-weights published in %.1f s, applied %.1f s after the first", n, publishSeconds, appliedSeconds);

            // (4) views against fresh answers on the last version
            int verified = 0, checked = 0;
            CpuCheck cpu = new CpuCheck();
            CsrGraph now = reweights.graphAt(last2);
            cpu.use(now);
            for (int k = 0; k < o.verify(); k++) {
                PushTracker.Sub s = subs.get(k);
                GraphQuery q = GraphQuery.newBuilder().setQueryId(io.runId() + "-verify-" + k).setGraphId(graphId)
                        .setAlgorithm(Algorithm.SSSP).setSource(s.source + first).setResultMode(ResultMode.FULL)
                        .setBackend(o.bootstrap() == null || o.startWorker() || o.backend().equals("auto") ? null : o.backend()).build();
                CompletableFuture<OutputTracker.Answer> answer = io.outputs().expect(q.getQueryId(), true);
                io.producer().send(graphId, q);
                OutputTracker.Answer a = await(answer, "the answer to " + q.getQueryId());
                if (a.head().status() != ResultStatus.OK || a.head().version() != last2) {
                    failures.add(q.getQueryId() + ": " + a.head().status() + " on version " + a.head().version() + ", expected " + last2);
                    continue;
                }
                Verification engine = cpu.check(q, a.chunks(), first);
                checked++;
                if (!engine.ok()) {
                    failures.add(q.getQueryId() + ": the fresh answer differs from the CPU engine: " + engine.message());
                    continue;
                }
                Verification view = viewMatches(s, Answers.decode(SsspResult.class, a.chunks()), now);
                if (view.ok()) verified++;
                else failures.add(s.id + ": the view differs from a fresh answer on version " + last2 + ": " + view.message());
            }
            // the last pushes in flight: until none came for a second
            long quietFrom = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() - pushes.lastPushNanos() < 1_000_000_000L && System.nanoTime() < quietFrom) sleep(100);

            // (5) latency, pushes, bytes
            Result r = measure(subs, version, n, sent, tail, head, statusTimes, fullBytes, fullChunks, initialSeconds,
                    publishSeconds, appliedSeconds, status, verified, checked);

            // (6) cancel: every subscription ends with an END push
            for (PushTracker.Sub s : subs) {
                io.producer().send(graphId, Subscription.newBuilder().setSubscriptionId(s.id).setGraphId(graphId)
                        .setAlgorithm(Algorithm.SSSP).setSource(s.source + first).setCancel(true).build());
            }
            int ended = 0;
            long deadline = System.nanoTime() + Math.min(timeout.toNanos(), 60_000_000_000L);
            for (PushTracker.Sub s : subs) {
                try {
                    s.end.get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                    ended++;
                } catch (Exception x) {
                    failures.add(s.id + ": no END push after its cancel (" + x + ")");
                }
            }
            failures.addAll(pushes.failures());
            for (OutputTracker.Error err : io.outputs().errors(graphId)) {
                failures.add("the worker reported " + err.event().getCode() + " for " + err.event().getQueryId() + ": " + err.event().getReason());
            }
            return r.finish(ended, failures);
        }

        /** {@code count} distinct seeded vertices with arcs out (fewer when the graph has fewer). */
        private int[] sources(int count) {
            SplittableRandom r = new SplittableRandom(o.seed() ^ o.graph().hashCode());
            int candidates = 0;
            for (int v = 0; v < loaded.vertexCount(); v++) if (loaded.degree(v) > 0) candidates++;
            Set<Integer> picked = new LinkedHashSet<>();
            while (picked.size() < Math.min(count, candidates)) {
                int v = r.nextInt(loaded.vertexCount());
                if (loaded.degree(v) > 0) picked.add(v);
            }
            return picked.stream().mapToInt(Integer::intValue).toArray();
        }

        /** The view of {@code s} against {@code fresh}, waiting (up to the timeout) for pushes still on their way. */
        private Verification viewMatches(PushTracker.Sub s, SsspResult fresh, CsrGraph g) {
            long deadline = System.nanoTime() + timeout.toNanos();
            Verification v;
            while (true) {
                synchronized (s) {
                    double[] d = s.view.distances();
                    if (d.length != fresh.distances().length) {
                        v = Verification.fail("the view holds " + d.length + " vertices, the graph " + fresh.distances().length);
                    } else if (!Arrays.equals(d, fresh.distances())) {
                        int at = 0;
                        while (Double.compare(d[at], fresh.distances()[at]) == 0) at++;
                        v = Verification.fail("distance of vertex " + (at + first) + ": " + d[at] + " in the view, " + fresh.distances()[at]
                                + " fresh (view at version " + s.view.version() + ")");
                    } else {
                        v = SsspVerifier.verify(g, s.source, new SsspResult(s.source, d.clone(), s.view.parents().clone(), Timing.NONE), fresh);
                    }
                }
                if (v.ok() || System.nanoTime() > deadline || pushes.failure() != null) return v;
                sleep(50);
            }
        }

        private Result measure(List<PushTracker.Sub> subs, long base, int n, long[] sent, int[] tail, int[] head,
                               Map<Long, Long> statusTimes, long[] fullBytes, int fullChunks, double initialSeconds,
                               double publishSeconds, double appliedSeconds,
                               GraphStatus status, int verified, int checked) {
            long updatePushes = 0, deltaPushes = 0, complete = 0, resync = 0, deltaBytes = 0;
            List<Double> deltaSizes = new ArrayList<>(), listed = new ArrayList<>(), lags = new ArrayList<>();
            List<List<PushTracker.Push>> bySub = new ArrayList<>();
            for (PushTracker.Sub s : subs) {
                List<PushTracker.Push> after = new ArrayList<>();
                for (PushTracker.Push p : s.pushes()) {
                    if (p.reason() == PushReason.INITIAL || p.version() <= base) continue;   // (warm-up pushes: not timed)
                    after.add(p);
                    if (p.reason() == PushReason.RESYNC) resync++;
                    if (p.reason() == PushReason.UPDATE) updatePushes++;
                    lags.add((double) p.readLagMs());
                    if (p.delta()) {
                        deltaPushes++;
                        deltaBytes += p.bytes();
                        deltaSizes.add((double) p.bytes());
                        listed.add((double) p.listed());
                    } else {
                        complete++;
                    }
                }
                bySub.add(after);
            }
            double[] sizes = deltaSizes.stream().mapToDouble(Double::doubleValue).toArray();
            double[] lists = listed.stream().mapToDouble(Double::doubleValue).toArray();
            double[] lag = lags.stream().mapToDouble(Double::doubleValue).toArray();
            // update k (version base + k + 1) against each subscription's first push at or after its version
            List<Double> updateMs = new ArrayList<>();
            List<PairTail.Pair> pairParts = new ArrayList<>();
            long affectedSum = 0;
            for (int k = 0; k < n; k++) {
                long v = base + k + 1;
                long worst = -1;
                int affected = 0;
                for (List<PushTracker.Push> ps : bySub) {
                    PushTracker.Push p = firstAtOrAfter(ps, v);
                    if (p == null) continue;
                    boolean changed = Arrays.binarySearch(p.changed(), head[k]) >= 0
                            || (!loaded.directed() && Arrays.binarySearch(p.changed(), tail[k]) >= 0);
                    if (!changed) continue;
                    long ns = p.nanos() - sent[k];
                    pairParts.add(new PairTail.Pair(ns / 1e6, p.readLagMs(), p.listed()));
                    worst = Math.max(worst, ns);
                    affected++;
                }
                if (affected > 0) {
                    updateMs.add(worst / 1e6);
                    affectedSum += affected;
                }
            }
            // update k is applied when a status of its version or a later one is read (a worker reports the updates
            // it applies together by their last version)
            java.util.TreeMap<Long, Long> reported = new java.util.TreeMap<>(statusTimes);
            double[] statusMs = new double[n];
            int statuses = 0;
            for (int k = 0; k < n; k++) {
                Map.Entry<Long, Long> at = reported.ceilingEntry(base + k + 1);
                if (at != null) statusMs[statuses++] = (at.getValue() - sent[k]) / 1e6;
            }
            statusMs = Arrays.copyOf(statusMs, statuses);
            double[] pairs = pairParts.stream().mapToDouble(PairTail.Pair::ms).toArray();
            double[] updates = updateMs.stream().mapToDouble(Double::doubleValue).toArray();
            long[] fb = fullBytes.clone();
            Arrays.sort(fb);
            return new Result(o.graph(), status.getVertexCount(), status.getEdgeCount(), loaded.directed(), status.getBackend(),
                    subs.size(), initialSeconds, fb.length == 0 ? 0 : fb[fb.length / 2], fullChunks, n, o.rate(), publishSeconds,
                    appliedSeconds, updatePushes, deltaPushes, complete, resync, Report.percentile(lists, 50), deltaBytes,
                    Report.percentile(sizes, 50), Report.percentile(sizes, 99), Report.max(sizes), pairs.length,
                    Report.percentile(pairs, 50), Report.percentile(pairs, 99), Report.max(pairs), updates.length,
                    Report.percentile(updates, 50), Report.percentile(updates, 99), Report.max(updates),
                    updates.length == 0 ? 0 : (double) affectedSum / updates.length, Report.percentile(statusMs, 50),
                    Report.percentile(statusMs, 99), Report.percentile(lag, 50), Report.percentile(lag, 99), verified, checked, 0,
                    PairTail.describe(pairParts), List.of());
        }

        private static PushTracker.Push firstAtOrAfter(List<PushTracker.Push> ps, long version) {
            int lo = 0, hi = ps.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ps.get(mid).version() < version) lo = mid + 1; else hi = mid;
            }
            return lo < ps.size() ? ps.get(lo) : null;
        }

        private <T> T await(CompletableFuture<T> f, String what) {
            return GraphBench.await(io, f, what, timeout, graphId);
        }

        private PushTracker.Push awaitPush(CompletableFuture<PushTracker.Push> f, String what) {
            return GraphBench.await(io, f, what, timeout, graphId);
        }
    }

    static String markdown(Options o, Result r, String where, ZonedDateTime started, double seconds, String loadBefore,
                           String loadAfter) {
        StringBuilder b = new StringBuilder();
        b.append("### SubscriptionBench, ").append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
        b.append("- command: `").append(o.command()).append("`\n");
        b.append("- Kafka and worker: ").append(where).append('\n');
        for (String line : Machine.describe().split("\n")) b.append("- ").append(line.replaceAll(" +", " ")).append('\n');
        b.append("- GPU: ").append(Machine.gpus().replace("\n", "; ")).append('\n');
        b.append(f("- graph %s: %,d vertices, %,d edges, %s, held on %s%n", r.graph(), r.vertices(), r.edges(),
                r.directed() ? "directed" : "undirected", r.backend()));
        b.append(f("- settings: %d SSSP subscriptions (DELTA, distinct seeded sources); single-edge re-weights at %,d/s for %d s"
                + "%s; %d views verified; seed %d%n", r.subscriptions(), r.targetRate(), o.seconds(),
                o.warmupS() == 0 ? "" : f(", after %d s of untimed ones (applied, their pushes read)", o.warmupS()), o.verify(), o.seed()));
        b.append(f("- took %.0f s; load average (1, 5, 15 min) %s before, %s after%n", seconds, loadBefore, loadAfter));
        b.append("\n**Standing SSSP queries through Kafka** (INITIAL: from publishing the first subscription to reading the last"
                + " INITIAL answer; applied: from the first re-weight handed to the producer to the worker's GraphStatus of the"
                + " last; pushes: UPDATE pushes read (DELTA, or complete after a recompute); bytes: record values as published,"
                + " Avro (DELTA pushes in the compact fields unless the worker's frontier.subscriptions.compact-delta is false),"
                + " before Kafka's compression; DELTA bytes per re-weight: DELTA bytes over the timed re-weights; FULL: one complete answer (INITIAL, median); FULL mode would send: the same"
                + " pushes as complete answers; latency per (update, subscription it changed): from handing the re-weight to the"
                + " producer to reading the first push of that subscription on a version including it; per update: until every"
                + " subscription it changed had such a push; applied: from handing a re-weight to the producer to reading the"
                + " worker's GraphStatus of its version or a later one; push read lag: from an UPDATE push's record timestamp (the worker's"
                + " producer sending it) to reading it here, wall clock):\n\n");
        b.append("| graph | backend | subs | INITIAL s | FULL bytes | re-weights | target/s | published/s | applied/s | pushes"
                + " | complete | DELTA bytes p50 | p99 | max | DELTA MB | DELTA bytes per re-weight | FULL mode would send MB | changes per push p50"
                + " | pairs | pair p50 ms | pair p99 ms | pair max ms | updates that changed a sub | subs per such update"
                + " | update p50 ms | update p99 ms | update max ms | applied p50 ms | applied p99 ms | push read lag p50 ms"
                + " | p99 ms | views verified | ended |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        b.append(f("| %s | %s | %d | %.1f | %,d | %,d | %,d | %,.0f | %,.0f | %,d | %,d | %s | %s | %s | %.2f | %,.0f | %.1f | %s | %,d"
                        + " | %s | %s | %s | %,d | %.1f | %s | %s | %s | %s | %s | %s | %s | %d/%d | %d/%d |%n",
                r.graph(), r.backend(), r.subscriptions(), r.initialSeconds(), r.fullBytes(), r.updates(), r.targetRate(),
                r.updates() / r.publishSeconds(), r.updates() / r.appliedSeconds(), r.updatePushes(), r.completePushes(),
                n0(r.deltaBytesP50()), n0(r.deltaBytesP99()), n0(r.deltaBytesMax()), r.deltaBytes() / 1e6,
                (double) r.deltaBytes() / Math.max(1, r.updates()), r.fullModeBytes() / 1e6,
                n0(r.listedMedian()), r.pairs(), n1(r.pairP50()), n1(r.pairP99()), n1(r.pairMax()), r.changingUpdates(),
                r.affectedMean(), n1(r.updateP50()), n1(r.updateP99()), n1(r.updateMax()), n1(r.statusP50()), n1(r.statusP99()),
                n0(r.lagP50()), n0(r.lagP99()),
                r.verified(), o.verify(), r.ended(),
                r.subscriptions()));
        if (r.resyncPushes() > 0) b.append(f("%nRESYNC pushes during the run: %d (none expected).%n", r.resyncPushes()));
        b.append(f("%n%s; %d fresh answers checked against the CPU engine.%n", r.ok()
                ? "Every push applied in sequence, every checked view equal to a fresh answer, every subscription ended on cancel"
                : r.failures().size() + " FAILURES", r.checked()));
        for (String x : r.failures().subList(0, Math.min(20, r.failures().size()))) b.append("- FAILED: ").append(x).append('\n');
        if (r.failures().size() > 20) b.append("- ... and ").append(r.failures().size() - 20).append(" more\n");
        return b.toString();
    }

    private static String n0(double x) {
        return Double.isNaN(x) ? "" : f("%,.0f", x);
    }

    private static String n1(double x) {
        return Double.isNaN(x) ? "" : f("%.1f", x);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void log(String format, Object... args) {
        System.err.println("[subscription-bench] " + String.format(Locale.ROOT, format, args));
    }
}
