package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.frontiergraph.bench.kafka.OutputTracker.Answer;
import org.frontiergraph.bench.kafka.OutputTracker.Loaded;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;

/**
 * The scenarios on one graph, in order: snapshot load, closed loop, burst, sustained updates (re-weights), update
 * then query, sustained structural updates (add/remove). Keeps the version the worker must answer on (the loaded one
 * plus every update published since), checks every answer's status and version, and checks a sample of answers
 * against the CPU engine on that version.
 */
final class GraphBench {
    static final int TARGETS_PER_QUERY = 8;
    private static final List<Algorithm> ALGORITHMS = List.of(Algorithm.BFS, Algorithm.SSSP, Algorithm.MST);
    private static final List<ResultMode> MODES = List.of(ResultMode.SUMMARY, ResultMode.TARGETS, ResultMode.FULL);

    /** The connections a run shares between its graphs. */
    record Io(BenchCluster cluster, FrontierClient client, BenchProducer producer, OutputTracker outputs, String runId) {}

    /** A query, when it was handed to the producer, and its answer. */
    private record Timed(GraphQuery query, long sentNanos, Answer answer, Stamps stamps) {
        Timed(GraphQuery query, long sentNanos, Answer answer) {
            this(query, sentNanos, answer, null);
        }

        double ms() { return (answer.doneNanos() - sentNanos) / 1e6; }
    }

    /**
     * A closed-loop query's moments on the client: handed to the producer (wall clock, us), and the broker's
     * acknowledgement of the query record (System.nanoTime; 0 until it came).
     */
    private static final class Stamps {
        final long sentEpochMicros = epochMicros();
        volatile long ackedNanos;

        static long epochMicros() {
            Instant now = Instant.now();
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        }
    }

    private final String name;
    private final String graphId;
    private final EdgeList edges;
    private final int first;
    private final BenchOptions o;
    private final Io io;
    private final Report report;
    private final CpuCheck check = new CpuCheck();
    private final Duration timeout;
    private final CsrGraph loadedGraph;
    private final int[] sources;
    private final List<List<Integer>> targets = new ArrayList<>();
    private long version = -1;
    private Reweights reweights;
    /** The updates published so far and the graph of each version: the re-weights, then the structural updates. */
    private UpdateSource updates;
    private String backend = "?";
    private int queryCount;
    /** The closed loop's SUMMARY p50 per algorithm, to size a burst to the budget. */
    private final double[] summaryP50 = new double[Algorithm.values().length];

    GraphBench(String name, EdgeList edges, int first, BenchOptions o, Io io, Report report) {
        this.name = name;
        this.graphId = "kbench-" + name;
        this.edges = edges;
        this.first = first;
        this.o = o;
        this.io = io;
        this.report = report;
        this.timeout = Duration.ofSeconds(o.timeoutS());
        this.loadedGraph = GraphBuilder.build(edges);
        SplittableRandom r = new SplittableRandom(o.seed() ^ name.hashCode());
        int n = Math.max(o.warmup() + o.queries(), o.burst());
        sources = new int[n];
        for (int i = 0; i < n; i++) {
            int s;
            do s = r.nextInt(loadedGraph.vertexCount()); while (loadedGraph.degree(s) == 0);
            sources[i] = s;
        }
        for (int i = 0; i < o.warmup() + o.queries(); i++) {
            List<Integer> t = new ArrayList<>(TARGETS_PER_QUERY);
            for (int k = 0; k < TARGETS_PER_QUERY; k++) t.add(r.nextInt(loadedGraph.vertexCount()) + first);
            targets.add(t);
        }
    }

    void run() {
        load();
        if (o.runs("closed")) closed();
        if (o.runs("burst")) burst();
        if (o.runs("updates")) sustained(Report.REWEIGHTS, reweights);
        if (o.runs("update-then-query")) updateThenQuery();
        // last: its removals change which edges exist, and the re-weights above pick edges of the loaded graph
        if (o.runs("edge-updates")) edgeUpdates();
    }

    // ---- (1) snapshot load ----

    private void load() {
        int runs = o.runs("load") ? o.loadRuns() : 1;
        double[] loaded = new double[runs];
        double buildMs = 0, publishMs = 0, megabytes = 0;
        int chunkCount = 0;
        GraphStatus status = null;
        for (int r = 0; r < runs; r++) {
            long v = Math.max(System.currentTimeMillis(), version + 1);   // newer than whatever the worker holds
            long b0 = System.nanoTime();
            List<GraphSnapshotChunk> chunks = FrontierClient.chunks(graphId, v, Snapshots.of(edges), first, true, FrontierClient.CHUNK_EDGES);
            double build = (System.nanoTime() - b0) / 1e6;
            CompletableFuture<Loaded> done = io.outputs().expectVersion(graphId, v);
            long t0 = System.nanoTime();
            io.client().publishChunks(chunks, null);
            double publish = (System.nanoTime() - t0) / 1e6;
            Loaded l = await(done, "graph " + graphId + " version " + v + " loaded");
            if (l.status() == null) throw new IllegalStateException("graph " + graphId + " version " + v + " was loaded before it was published");
            loaded[r] = (l.nanos() - t0) / 1e6;
            status = l.status();
            if (r == 0) {
                buildMs = build;
                publishMs = publish;
                chunkCount = chunks.size();
                for (GraphSnapshotChunk c : chunks) {
                    megabytes += (c.getEdges().getSources().remaining() + c.getEdges().getTargets().remaining()
                            + c.getEdges().getWeights().remaining()) / 1e6;
                }
            }
            version = v;
            progress("loaded v%d in %.0f ms (%,.0f edges/s) on %s", v, loaded[r], edges.size() / (loaded[r] / 1e3), status.getBackend());
        }
        backend = status.getBackend();
        if (status.getVertexCount() != loadedGraph.vertexCount() || status.getEdgeCount() != loadedGraph.edgeCount()) {
            report.failures.add(name + ": the worker holds " + status.getVertexCount() + " vertices and " + status.getEdgeCount()
                    + " edges, the graph built here " + loadedGraph.vertexCount() + " and " + loadedGraph.edgeCount());
        }
        report.graphs.add(new Report.GraphRow(name, status.getVertexCount(), edges.size(), status.getEdgeCount(),
                loadedGraph.arcCount(), loadedGraph.directed(), backend, status.getResidentBytes()));
        if (o.runs("load")) {
            report.loads.add(new Report.LoadRow(name, backend, edges.size(), chunkCount, megabytes, buildMs, publishMs,
                    Report.percentile(loaded, 50), Arrays.stream(loaded).min().orElse(Double.NaN), runs));
        }
        reweights = new Reweights(loadedGraph, version, first, o.seed() ^ 0x5EED);
        updates = reweights;
    }

    // ---- (2) closed loop ----

    /** Untimed queries right before a row's timed ones (after the warm-up round of every row). */
    private static final int ROW_WARMUP = 3;

    /**
     * Every row's warm-up first, then each row timed after a few more untimed queries of its own: a row measured right
     * after the load or after other rows' first queries read a worker (and, in one JVM, a broker) whose code paths
     * were still being compiled: with the warm-up per row only, NY BFS SUMMARY, the first row, waited 2 ms in the
     * worker's queue at p50 on the H200 against 1 ms for every later row (2026-11-26), 6 ms against 1-3 on 2 cores.
     */
    private void closed() {
        for (Algorithm a : ALGORITHMS) {
            for (ResultMode mode : MODES) {
                if (a == Algorithm.MST && mode == ResultMode.TARGETS) continue;   // an MST answer is the whole forest
                for (int i = 0; i < o.warmup(); i++) accept(ask(query(a, mode, i)).answer(), version);
            }
        }
        for (Algorithm a : ALGORITHMS) {
            for (ResultMode mode : MODES) {
                if (a == Algorithm.MST && mode == ResultMode.TARGETS) continue;
                for (int i = 0; i < Math.min(ROW_WARMUP, o.warmup()); i++) accept(ask(query(a, mode, i)).answer(), version);
                List<Timed> timed = new ArrayList<>();
                long start = System.nanoTime();
                String note = "";
                for (int i = 0; i < o.queries(); i++) {
                    if (i > 0 && elapsedS(start) > o.budgetS()) {
                        note = "stopped at the " + o.budgetS() + " s budget";
                        break;
                    }
                    Timed t = ask(query(a, mode, o.warmup() + i), i < o.verify());
                    accept(t.answer(), version);
                    timed.add(t);
                }
                int verified = verify(timed, version);
                double[] ms = timed.stream().mapToDouble(Timed::ms).toArray();
                double p50 = Report.percentile(ms, 50);
                if (mode == ResultMode.SUMMARY) summaryP50[a.ordinal()] = p50;
                Timed last = timed.get(timed.size() - 1);
                report.closed.add(new Report.ClosedRow(name, a.name(), mode.name(), last.answer().head().backend(), timed.size(),
                        last.answer().head().chunkCount(), p50, Report.percentile(ms, 99), Report.max(ms),
                        workerMs(timed), verified, note));
                progress("closed loop %s %s: p50 %.2f ms, p99 %.2f ms over %d", a, mode, p50, Report.percentile(ms, 99), timed.size());
            }
        }
    }

    /**
     * The medians of the closed loop's stages, in the order a query goes through them: the client's (its record
     * acknowledged by the broker), the worker's (its LatencyEvents: queued, pickup, decode, engine, compute, copy, encode,
     * hand-over to the producer, acknowledgement), and the client's again (from the worker's acknowledgement, the
     * event's timestampMs, to the client reading the last chunk). Worker times that start or end at a record timestamp
     * (queued, end-to-end, delivered) are whole milliseconds; the others are on the worker's nanosecond clock.
     */
    private Report.WorkerMs workerMs(List<Timed> timed) {
        List<LatencyEvent> events = io.outputs().latencies(timed.stream().map(t -> t.query().getQueryId()).toList(),
                Duration.ofSeconds(10));
        double acked = Report.percentile(timed.stream().filter(t -> t.stamps() != null && t.stamps().ackedNanos != 0)
                .mapToDouble(t -> (t.stamps().ackedNanos - t.sentNanos()) / 1e6).toArray(), 50);
        if (events.isEmpty()) return Report.WorkerMs.NONE;
        Map<String, Timed> byId = new HashMap<>();
        for (Timed t : timed) byId.put(t.query().getQueryId(), t);
        double[] delivered = events.stream().map(e -> {
            Timed t = byId.get(e.getQueryId());
            if (t == null || t.stamps() == null) return null;
            long readEpochMicros = t.stamps().sentEpochMicros + (t.answer().doneNanos() - t.sentNanos()) / 1_000;
            return (readEpochMicros - e.getTimestampMs() * 1_000) / 1e3;
        }).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        return new Report.WorkerMs(acked, median(events, LatencyEvent::getQueuedMicros), median(events, LatencyEvent::getPickupMicros),
                median(events, LatencyEvent::getDecodeMicros), median(events, LatencyEvent::getEngineMicros),
                median(events, LatencyEvent::getComputeMicros), median(events, LatencyEvent::getCopyMicros),
                median(events, LatencyEvent::getEncodeMicros), median(events, LatencyEvent::getHandOverMicros),
                median(events, LatencyEvent::getAcknowledgeMicros), median(events, LatencyEvent::getEndToEndMicros),
                delivered.length == 0 ? Double.NaN : Report.percentile(delivered, 50), events.size());
    }

    /** The median of a stage over the events that carry it, in ms (NaN: none does). */
    private static double median(List<LatencyEvent> events, java.util.function.Function<LatencyEvent, Long> micros) {
        double[] ms = events.stream().map(micros).filter(Objects::nonNull).mapToDouble(m -> m / 1e3).toArray();
        return ms.length == 0 ? Double.NaN : Report.percentile(ms, 50);
    }

    // ---- (3) burst ----

    private void burst() {
        for (Algorithm a : ALGORITHMS) {
            double p50 = summaryP50[a.ordinal()];
            if (p50 == 0) {   // no closed loop ran: warm up and take the pace from a few queries
                double[] ms = new double[Math.max(1, o.warmup())];
                for (int i = 0; i < ms.length; i++) {
                    Timed t = ask(query(a, ResultMode.SUMMARY, i));
                    accept(t.answer(), version);
                    ms[i] = t.ms();
                }
                p50 = Report.percentile(ms, 50);
            }
            int n = o.burst();
            String note = "";
            int affordable = (int) Math.max(1, o.budgetS() * 1e3 / p50);   // if the worker answered them one by one
            if (affordable < n) {
                n = affordable;
                note = "sized down from " + o.burst() + " to fit the " + o.budgetS() + " s budget at the closed loop's p50";
            }
            fire(a, Math.min(n, BURST_WARMUP), 1_000_000);   // untimed: opens the batched launchers, warms the JIT
            CpuCost cost = CpuCost.start();
            List<Timed> timed = fire(a, n, 0);
            progress("burst %s SUMMARY: %s", a, cost.since(n, "query"));
            long start = timed.stream().mapToLong(Timed::sentNanos).min().orElseThrow();
            long end = timed.stream().mapToLong(t -> t.answer().doneNanos()).max().orElseThrow();
            double seconds = (end - start) / 1e9;
            int verified = verify(timed.subList(0, Math.min(n, o.verify())), version);
            double[] ms = timed.stream().mapToDouble(Timed::ms).toArray();
            report.bursts.add(new Report.BurstRow(name, a.name(), timed.get(0).answer().head().backend(), n, seconds,
                    Report.percentile(ms, 50), Report.percentile(ms, 99), verified, note));
            progress("burst %s SUMMARY x%d: %.3f s, %,.0f queries/s", a, n, seconds, n / seconds);
        }
    }

    /** Queries of a burst handed over untimed first, so the timed one measures the steady state. */
    static final int BURST_WARMUP = 200;

    /**
     * Hands {@code n} SUMMARY queries of {@code a} (seeded by index from {@code first}) to the producer at once and
     * waits for every answer, each checked to be on the current version.
     */
    private List<Timed> fire(Algorithm a, int n, int first) {
        List<GraphQuery> queries = new ArrayList<>(n);
        List<CompletableFuture<Answer>> answers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            GraphQuery q = query(a, ResultMode.SUMMARY, first + i);
            queries.add(q);
            answers.add(io.outputs().expect(q.getQueryId(), first == 0 && i < o.verify()));
        }
        long[] sent = new long[n];
        for (int i = 0; i < n; i++) {
            sent[i] = System.nanoTime();
            io.producer().send(graphId, queries.get(i));
        }
        List<Timed> timed = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Answer ans = await(answers.get(i), "answer to burst query " + queries.get(i).getQueryId());
            accept(ans, version);
            timed.add(new Timed(queries.get(i), sent[i], ans));
        }
        return timed;
    }

    // ---- (4) sustained updates, re-weights or (6) structural ----

    /** Structural updates from the version the worker holds now, alternately removing and adding an edge. */
    private void edgeUpdates() {
        EdgeFlips flips = new EdgeFlips(updates.graphAt(version), version, first, o.seed() ^ 0xF1195);
        updates = flips;
        sustained(Report.ADD_REMOVE, flips);
    }

    /**
     * Sustained single-edge updates drawn from {@code source} ({@code kind}: what they are, for the table), one SSSP
     * SUMMARY query per {@code --query-every}, each answered on the version with the updates before it.
     */
    private void sustained(String kind, UpdateSource source) {
        // Probes pace the run: at today's few re-weights a second on large graphs, 10,000 would take an hour. A first
        // probe of 20 gives the order of magnitude; a second of about 2 s of work at that rate gives the sustained one.
        double probeRate = probe(source, Math.min(o.updates(), 20));
        int second = (int) Math.min(o.updates(), Math.floor(probeRate * 2));
        if (second >= 100) probeRate = probe(source, second);
        int n = o.updates();
        String note = "";
        double affordable = probeRate * o.budgetS();
        if (affordable < n) {
            n = affordable >= o.queryEvery() ? (int) (affordable / o.queryEvery()) * o.queryEvery() : (int) Math.max(1, affordable);
            note = "sized down from " + o.updates() + " to fit the " + o.budgetS() + " s budget at the probe's rate";
        }
        progress("updates (%s): probed at %,.0f/s; publishing %,d", kind, probeRate, n);

        long base = version;
        List<GraphQuery> queries = new ArrayList<>();
        List<Long> expected = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        CompletableFuture<Loaded> applied = io.outputs().expectVersion(graphId, base + n);
        CpuCost cost = CpuCost.start();
        long start = System.nanoTime();
        Future<RecordMetadata> last = null;
        for (int i = 1; i <= n; i++) {
            last = io.producer().send(graphId, source.next(graphId));
            if (i % o.queryEvery() == 0 || i == n) {
                GraphQuery q = query(Algorithm.SSSP, ResultMode.SUMMARY, queries.size());
                answers.add(io.outputs().expect(q.getQueryId(), true));
                queries.add(q);
                expected.add(base + i);
                sent.add(System.nanoTime());
                last = io.producer().send(graphId, q);
            }
        }
        BenchProducer.acknowledged(last, timeout);
        double publishSeconds = elapsedS(start);
        Loaded done = await(applied, "the " + n + " updates applied (version " + (base + n) + ")");
        double appliedSeconds = (done.nanos() - start) / 1e9;
        version = base + n;
        List<Timed> timed = new ArrayList<>();
        for (int k = 0; k < queries.size(); k++) {
            Answer a = await(answers.get(k), "answer to query " + queries.get(k).getQueryId());
            accept(a, expected.get(k));
            timed.add(new Timed(queries.get(k), sent.get(k), a));
        }
        progress("updates (%s): %s", kind, cost.since(n, "update, its share of the queries included"));
        // the first and the last answers against the CPU engine, each on its own version
        int verified = 0;
        if (o.verify() > 0) {
            verified += verify(timed.subList(0, 1), expected.get(0));
            if (timed.size() > 1) verified += verify(timed.subList(timed.size() - 1, timed.size()), expected.get(timed.size() - 1));
        }
        double[] ms = timed.stream().mapToDouble(Timed::ms).toArray();
        report.updates.add(new Report.UpdatesRow(name, kind, n, o.queryEvery(), timed.size(), publishSeconds, appliedSeconds,
                probeRate, Report.percentile(ms, 50), Report.percentile(ms, 99), workerMs(timed).compute(), verified, note));
        progress("updates (%s): %,d applied in %.2f s: %,.0f/s", kind, n, appliedSeconds, n / appliedSeconds);
    }

    /** Publishes {@code count} updates of {@code source} at once and waits until they are applied; returns updates/s. */
    private double probe(UpdateSource source, int count) {
        long t0 = System.nanoTime();
        long target = version + count;
        CompletableFuture<Loaded> applied = io.outputs().expectVersion(graphId, target);
        for (int i = 0; i < count; i++) io.producer().send(graphId, source.next(graphId));
        await(applied, "a probe's " + count + " updates applied (version " + target + ")");
        version = target;
        return count / elapsedS(t0);
    }

    // ---- (5) update then query ----

    private void updateThenQuery() {
        List<Timed> timed = new ArrayList<>();
        List<Long> versions = new ArrayList<>();
        long start = 0;
        String note = "";
        for (int i = -o.warmup(); i < o.queries(); i++) {
            if (i == 0) start = System.nanoTime();
            if (i > 0 && elapsedS(start) > o.budgetS()) {
                note = "stopped at the " + o.budgetS() + " s budget";
                break;
            }
            GraphUpdate u = reweights.next(graphId);
            GraphQuery q = query(Algorithm.SSSP, ResultMode.SUMMARY, Math.floorMod(i, sources.length));
            CompletableFuture<Answer> answer = io.outputs().expect(q.getQueryId(), true);
            long t0 = System.nanoTime();
            io.producer().send(graphId, u);
            io.producer().send(graphId, q);
            Answer a = await(answer, "answer to query " + q.getQueryId() + " after an update");
            version = reweights.version();
            accept(a, version);
            if (i >= 0) {
                timed.add(new Timed(q, t0, a));
                versions.add(version);
            }
        }
        int verified = 0;
        for (int k = 0; k < Math.min(o.verify(), timed.size()); k++) verified += verify(timed.subList(k, k + 1), versions.get(k));
        double[] ms = timed.stream().mapToDouble(Timed::ms).toArray();
        report.updateQueries.add(new Report.UpdateQueryRow(name, timed.get(0).answer().head().backend(), timed.size(),
                Report.percentile(ms, 50), Report.percentile(ms, 99), Report.max(ms), verified, note));
        progress("update then query: p50 %.2f ms, p99 %.2f ms over %d", Report.percentile(ms, 50), Report.percentile(ms, 99), timed.size());
    }

    // ---- queries, answers, checks ----

    /** Query {@code i} of a sequence: the i-th seeded source and target list. */
    private GraphQuery query(Algorithm a, ResultMode mode, int i) {
        return GraphQuery.newBuilder()
                .setQueryId(io.runId() + "-" + name + "-" + (queryCount++))
                .setGraphId(graphId)
                .setAlgorithm(a)
                .setResultMode(mode)
                .setSource(a == Algorithm.MST ? null : sources[i % sources.length] + first)
                .setTargets(mode == ResultMode.TARGETS ? targets.get(i % targets.size()) : List.of())
                .setBackend(o.startsWorker() || o.backend().equals("auto") ? null : o.backend())
                .build();
    }

    private Timed ask(GraphQuery q) {
        return ask(q, false);
    }

    /** Publishes one query and waits for its whole answer; {@code keep}: with its chunks, to verify it. */
    private Timed ask(GraphQuery q, boolean keep) {
        CompletableFuture<Answer> answer = io.outputs().expect(q.getQueryId(), keep);
        Stamps stamps = new Stamps();
        long t0 = System.nanoTime();
        io.producer().send(graphId, q, acked -> stamps.ackedNanos = acked);
        return new Timed(q, t0, await(answer, "answer to query " + q.getQueryId()), stamps);
    }

    /** Every answer: status OK, on the version that includes everything published before its query. */
    private void accept(Answer a, long expectedVersion) {
        report.answers++;
        OutputTracker.Head h = a.head();
        if (h.status() != ResultStatus.OK) {
            report.failures.add(name + " query " + a.queryId() + ": " + h.status() + " - " + h.error());
        } else if (h.version() != expectedVersion) {
            report.failures.add(name + " query " + a.queryId() + ": answered on version " + h.version() + ", expected " + expectedVersion);
        }
    }

    /** Checks the kept answers of {@code timed} (all on {@code atVersion}) against the CPU engine; returns how many passed. */
    private int verify(List<Timed> timed, long atVersion) {
        int passed = 0;
        for (Timed t : timed) {
            if (t.answer().chunks() == null || t.answer().head().status() != ResultStatus.OK) continue;
            check.use(updates.graphAt(atVersion));
            Verification v = check.check(t.query(), t.answer().chunks(), first);
            report.checked++;
            if (v.ok()) passed++;
            else report.failures.add(name + " query " + t.query().getQueryId() + " (" + t.query().getAlgorithm() + " "
                    + t.query().getResultMode() + "): " + v.message());
        }
        return passed;
    }

    private <T> T await(CompletableFuture<T> f, String what) {
        return await(io, f, what, timeout, graphId);
    }

    /**
     * The value of {@code f}, or a failure that says why it did not come within {@code timeout}: the worker JVM
     * exited, reading the outputs failed, or nothing came (with the worker's error events for {@code graphId}).
     */
    static <T> T await(Io io, CompletableFuture<T> f, String what, Duration timeout, String graphId) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return f.get(Math.min(1_000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                String gone = io.cluster().workerGone();
                if (gone != null) throw new IllegalStateException(what + ": " + gone);
                if (io.outputs().failure() != null) throw new IllegalStateException(what + ": reading the outputs failed: " + io.outputs().failure());
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(what + ": nothing after " + timeout.toSeconds() + " s (--timeout-s); errors the worker"
                            + " reported for graph " + graphId + ": " + io.outputs().errors(graphId).stream()
                            .map(x -> x.event().getCode() + ": " + x.event().getReason()).limit(3).toList());
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException(what + ": " + e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(what + ": interrupted", e);
            }
        }
    }

    private static double elapsedS(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private void progress(String format, Object... args) {
        System.err.println("[kafka-bench] " + name + ": " + String.format(Locale.ROOT, format, args));
    }
}
