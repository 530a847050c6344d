package org.frontiergraph.bench.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a KafkaBench run measured, one row type per scenario, and its markdown rendering. Latencies are client-side
 * (from handing the record to the producer to reading the last chunk of the answer) unless a column says "worker",
 * which is the median of the worker's own LatencyEvents for the same queries.
 */
final class Report {
    /** A graph as published and as the worker reported it loaded. */
    record GraphRow(String graph, int vertices, long edgesPublished, long edgesStored, long arcs, boolean directed,
                    String backend, long residentBytes) {}

    /** Snapshot load: {@code runs} loads of the whole graph, each a new version. */
    record LoadRow(String graph, String backend, long edges, int chunks, double megabytes, double buildMs, double publishMs,
                   double loadedMsMedian, double loadedMsBest, int runs) {
        double edgesPerSecond() { return edges / (loadedMsMedian / 1e3); }
    }

    /** The worker's LatencyEvent medians, ms. */
    /**
     * A closed-loop row's stages, medians in ms, in a query's order: its record acknowledged by the broker (client),
     * then the worker's LatencyEvent (queued to encode; send = end-to-end less the stages before it), then from the
     * worker's acknowledgement to the client reading the last chunk.
     */
    record WorkerMs(double queryAcked, double queued, double pickup, double decode, double engine, double compute, double copy,
                    double encode, double handOver, double acknowledge, double endToEnd, double delivered, int events) {
        static final WorkerMs NONE = new WorkerMs(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
    }

    /** Closed loop: one query at a time. */
    record ClosedRow(String graph, String algorithm, String mode, String backend, int queries, int chunks, double p50,
                     double p99, double max, WorkerMs worker, int verified, String note) {}

    /** Burst: {@code inFlight} SUMMARY queries published at once. */
    record BurstRow(String graph, String algorithm, String backend, int inFlight, double seconds, double p50, double p99,
                    int verified, String note) {
        double perSecond() { return inFlight / seconds; }
    }

    /** {@link UpdatesRow#kind}: single-edge re-weights of existing edges (scenario updates). */
    static final String REWEIGHTS = "re-weights";
    /** {@link UpdatesRow#kind}: alternately one edge removed and one added (scenario edge-updates). */
    static final String ADD_REMOVE = "add/remove";

    /** Sustained single-edge updates of one {@code kind} ({@link #REWEIGHTS}, {@link #ADD_REMOVE}), a query per {@code queryEvery}. */
    record UpdatesRow(String graph, String kind, int updates, int queryEvery, int queries, double publishSeconds, double appliedSeconds,
                      double probePerSecond, double queryP50, double queryP99, double queryComputeMs, int verified, String note) {
        double perSecond() { return updates / appliedSeconds; }
    }

    /** One re-weight then one SSSP SUMMARY query, repeated. */
    record UpdateQueryRow(String graph, String backend, int repeats, double p50, double p99, double max, int verified, String note) {}

    final List<GraphRow> graphs = new ArrayList<>();
    final List<LoadRow> loads = new ArrayList<>();
    final List<ClosedRow> closed = new ArrayList<>();
    final List<BurstRow> bursts = new ArrayList<>();
    final List<UpdatesRow> updates = new ArrayList<>();
    final List<UpdateQueryRow> updateQueries = new ArrayList<>();
    /** Every answer that was not OK, on the wrong version, failed a check, or never came; every error event. */
    final List<String> failures = new ArrayList<>();
    long answers;
    long checked;

    boolean allOk() { return failures.isEmpty(); }

    /** Nearest-rank percentile of {@code xs} (0 < p <= 100); NaN when empty. */
    static double percentile(double[] xs, double p) {
        if (xs.length == 0) return Double.NaN;
        double[] s = xs.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(p / 100 * s.length);
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }

    static double max(double[] xs) {
        return xs.length == 0 ? Double.NaN : Arrays.stream(xs).max().getAsDouble();
    }

    /** The whole report: {@code header} (date, machine, command ...), then one table per scenario that ran. */
    String markdown(String header) {
        StringBuilder b = new StringBuilder(header);
        b.append("\n| graph | vertices | edges published | edges stored | arcs | directed | held on | resident MB |\n");
        b.append("|---|---:|---:|---:|---:|---|---|---:|\n");
        for (GraphRow g : graphs) {
            b.append(f("| %s | %,d | %,d | %,d | %,d | %s | %s | %.1f |%n", g.graph, g.vertices, g.edgesPublished,
                    g.edgesStored, g.arcs, g.directed ? "yes" : "no", g.backend, g.residentBytes / 1e6));
        }
        if (!loads.isEmpty()) {
            b.append("\n**Snapshot load** (FrontierClient publishes the chunks; time from the first chunk handed to the producer to the"
                    + " worker's GraphStatus LOADED for that version; building the chunks is not timed):\n\n");
            b.append("| graph | edges | chunks | MB | build ms | publish ms | loaded ms (median) | loaded ms (best) | M edges/s | runs | target |\n");
            b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (LoadRow r : loads) {
                b.append(f("| %s | %,d | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %.1f | %d | %s |%n", r.graph, r.edges, r.chunks,
                        r.megabytes, r.buildMs, r.publishMs, r.loadedMsMedian, r.loadedMsBest, r.edgesPerSecond() / 1e6, r.runs,
                        Targets.load(r.backend, r.edgesPerSecond())));
            }
        }
        if (!closed.isEmpty()) {
            b.append("\n**Closed loop** (one query at a time; client ms from handing the query to the producer to reading its last"
                    + " result chunk; then each stage's median, in a query's order: query acked = the broker's acknowledgement of"
                    + " the query record, from the hand-over; the worker's LatencyEvents: queued (the record's timestamp to the start"
                    + " of decoding, whole ms), pickup (the poll that fetched it to the start of decoding), decode, engine (the"
                    + " engine call's wall time, containing compute and copy), compute, copy, encode, hand-over (the start of"
                    + " decoding to the first result chunk handed to the producer), acknowledge (from there to the broker's"
                    + " acknowledgement of the last chunk) and end-to-end (the record's timestamp to that acknowledgement, whole ms);"
                    + " delivered = from the worker's acknowledgement (the event's whole-ms timestamp, so about 0.5 ms high) to the"
                    + " client reading the last chunk):\n\n");
            b.append("| graph | algorithm | mode | backend | queries | chunks | p50 ms | p99 ms | max ms | query acked | worker queued"
                    + " | pickup | decode | engine | compute | copy | encode | hand-over | acknowledge | worker end-to-end | delivered"
                    + " | verified | target |\n");
            b.append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (ClosedRow r : closed) {
                WorkerMs w = r.worker;
                b.append(f("| %s | %s | %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f"
                                + " | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %s |%n",
                        r.graph, r.algorithm, r.mode, r.backend, r.queries, r.chunks, r.p50, r.p99, r.max, w.queryAcked, w.queued,
                        w.pickup, w.decode, w.engine, w.compute, w.copy, w.encode, w.handOver, w.acknowledge, w.endToEnd,
                        w.delivered, r.verified,
                        join(Targets.closed(r.graph, r.algorithm, r.mode, r.backend, r.p50, w.compute), r.note)));
            }
        }
        if (!bursts.isEmpty()) {
            b.append("\n**Burst** (all SUMMARY queries handed to the producer at once; queries/s = queries / time from the first"
                    + " hand-over to the last answer read; p50/p99: each query's own wait):\n\n");
            b.append("| graph | algorithm | backend | in flight | seconds | queries/s | p50 ms | p99 ms | verified | target |\n");
            b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
            for (BurstRow r : bursts) {
                b.append(f("| %s | %s | %s | %d | %.3f | %,.0f | %.1f | %.1f | %d | %s |%n", r.graph, r.algorithm, r.backend,
                        r.inFlight, r.seconds, r.perSecond(), r.p50, r.p99, r.verified,
                        join(Targets.burst(r.graph, r.algorithm, r.backend, r.perSecond()), r.note)));
            }
        }
        if (!updates.isEmpty()) {
            b.append("\n**Sustained updates** (single-edge updates, published as fast as the producer takes them, one SSSP SUMMARY"
                    + " query per N updates; kind: re-weights of existing edges to positive weights, or add/remove: alternately"
                    + " an existing edge removed and an absent one added, so the graph keeps its size; updates/s = updates /"
                    + " time from the first hand-over to the worker's GraphStatus of the last version; query wait: from handing"
                    + " a query to the producer to its answer, behind the updates published before it, so mostly the backlog;"
                    + " query compute: the worker's LatencyEvent median):\n\n");
            b.append("| graph | kind | updates | one query per | queries | publish s | applied s | updates/s | probe updates/s"
                    + " | query wait p50 ms | query wait p99 ms | query compute ms | verified | note |\n");
            b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (UpdatesRow r : updates) {
                b.append(f("| %s | %s | %,d | %,d | %d | %.2f | %.2f | %,.0f | %,.0f | %.1f | %.1f | %.2f | %d | %s |%n", r.graph,
                        r.kind, r.updates, r.queryEvery, r.queries, r.publishSeconds, r.appliedSeconds, r.perSecond(), r.probePerSecond,
                        r.queryP50, r.queryP99, r.queryComputeMs, r.verified, r.note));
            }
        }
        if (!updateQueries.isEmpty()) {
            b.append("\n**Update then query** (one re-weight, then one SSSP SUMMARY query at once behind it; ms from handing the"
                    + " update to the producer to reading the answer, which must be on the version with the update):\n\n");
            b.append("| graph | backend | repeats | p50 ms | p99 ms | max ms | verified | target |\n");
            b.append("|---|---|---:|---:|---:|---:|---:|---|\n");
            for (UpdateQueryRow r : updateQueries) {
                b.append(f("| %s | %s | %d | %.2f | %.2f | %.2f | %d | %s |%n", r.graph, r.backend, r.repeats, r.p50, r.p99, r.max,
                        r.verified, join(Targets.updateThenQuery(r.graph, r.backend, r.p50, r.p99), r.note)));
            }
        }
        b.append(f("%n%,d answers, %s; %,d of them checked against the CPU engine (verified column).%n", answers,
                allOk() ? "every one OK and on the expected graph version" : failures.size() + " FAILURES", checked));
        for (String failure : failures.subList(0, Math.min(failures.size(), 20))) b.append("- FAILED: ").append(failure).append('\n');
        if (failures.size() > 20) b.append("- ... and ").append(failures.size() - 20).append(" more\n");
        return b.toString();
    }

    private static String join(String a, String b) {
        if (a.isEmpty()) return b;
        return b.isEmpty() ? a : a + "; " + b;
    }

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
