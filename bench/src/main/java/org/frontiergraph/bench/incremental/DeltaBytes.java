package org.frontiergraph.bench.incremental;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.bench.worker.WorkerServices;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * The size of what a DELTA subscriber receives: the worker's own services wired in this process by their
 * constructors (as its unit tests do; no Kafka, CPU engine, since sizes do not depend on the engine), the graph loaded
 * from snapshot records, one DELTA subscription each for SSSP and BFS (one seeded source) and MST, then single-edge
 * re-weights, each its own record and its own poll batch (process, then flush, as the Kafka listener does). Every push
 * is Avro-encoded as it would be published ({@link FrontierCodec#encode}); its bytes (all chunks) are summed, decoded
 * again and applied to a {@link SubscriptionView}. At the end every view must equal a fresh answer on the worker's
 * graph (SSSP distances, BFS hops exactly; the MST forest's edges and weights), else the run aborts.
 */
final class DeltaBytes {
    private static final String TOPIC = "frontier.graphs";

    /**
     * One subscription's pushes over {@code updates} re-weights. DELTA bytes as published (compact arrays when the
     * worker writes them); {@code plainBytes}: the same pushes with plain packed arrays (the worker before the compact
     * fields, or with {@code frontier.subscriptions.compact-delta} false); {@code wire}: the DELTA pushes as Kafka record
     * batches (one per push), by {@link #CODECS}, and {@code compressNs} the time building them took (this process, one
     * thread).
     */
    record Row(String graph, String algorithm, int updates, int deltaPushes, int completePushes, double changedMedian,
               double bytesMedian, double bytesP99, double bytesMax, long deltaBytes, long fullBytes, long plainBytes, long[] wire,
               long[] compressNs) {
        /** FULL bytes per push over the median DELTA push. */
        double ratio() { return fullBytes / bytesMedian; }

        /** DELTA bytes per re-weight, as published and plain. */
        double perUpdate() { return (double) deltaBytes / updates; }

        double plainPerUpdate() { return (double) plainBytes / updates; }

        /** What FULL mode would have sent for the same pushes (the worker pushes FULL only on a change too). */
        long fullModeBytes() { return (long) (deltaPushes + completePushes) * fullBytes; }
    }

    private DeltaBytes() {}

    /** The results producer's {@code compression.type} choices measured: none, lz4, zstd (Kafka's default levels). */
    static final List<String> CODEC_NAMES = List.of("none", "lz4", "zstd");
    static final List<Compression> CODECS = List.of(Compression.NONE, Compression.lz4().build(), Compression.zstd().build());

    static Row[] measure(String name, GpuBench.Edges edges, int updates, long seed) {
        try (WorkerServices worker = new WorkerServices("repair-bench")) {
            return new Run(name, edges, worker.processor(), worker.registry()).go(updates, seed);
        }
    }

    private static final class Run {
        final String graphId;
        final String name;
        final GpuBench.Edges edges;
        final int first;
        final GraphEventProcessor processor;
        final GraphRegistry registry;
        final Map<String, SubscriptionView> views = new HashMap<>();
        final Map<String, Long> fullBytes = new HashMap<>();
        final Map<String, List<Long>> deltaBytes = new HashMap<>();
        final Map<String, List<Integer>> changed = new HashMap<>();
        final Map<String, Integer> complete = new HashMap<>();
        final Map<String, long[]> plain = new HashMap<>();
        final Map<String, long[]> batches = new HashMap<>();
        final Map<String, long[]> nanos = new HashMap<>();
        long offset;

        Run(String name, GpuBench.Edges edges, GraphEventProcessor processor, GraphRegistry registry) {
            this.graphId = "rbench-" + name;
            this.name = name;
            this.edges = edges;
            this.first = edges.firstVertexId();
            this.processor = processor;
            this.registry = registry;
        }

        Row[] go(int updates, long seed) {
            long t0 = System.nanoTime();
            for (GraphSnapshotChunk c : FrontierClient.chunks(graphId, 1, Snapshots.of(edges.edges()), first, true,
                    FrontierClient.CHUNK_EDGES)) {
                feed(c);
            }
            CsrGraph g = graph();
            int source = GpuBench.sources(g, 1)[0];
            List<String> ids = new ArrayList<>();
            for (Algorithm a : List.of(Algorithm.SSSP, Algorithm.BFS, Algorithm.MST)) {
                String id = "rbench-" + name + "-" + a;
                ids.add(id);
                feed(Subscription.newBuilder().setSubscriptionId(id).setGraphId(graphId).setAlgorithm(a)
                        .setSource(a == Algorithm.MST ? null : source + first).setResultMode(ResultMode.DELTA).build());
            }
            flush();
            for (String id : ids) {
                if (!fullBytes.containsKey(id)) throw new IllegalStateException("no INITIAL push for " + id);
            }
            RandomEdits random = new RandomEdits(g, RandomEdits.Series.REWEIGHTS, new SplittableRandom(seed ^ 0xDE17A));
            for (int i = 0; i < updates; i++) {
                EdgeEdits e = random.next();
                feed(GraphUpdate.newBuilder().setGraphId(graphId)
                        .setReweighted(PackedArrays.edgeBatch(new int[] {e.reweightU()[0] + first},
                                new int[] {e.reweightV()[0] + first}, e.reweightW()))
                        .build());
                flush();
            }
            check(graph(), source);
            RepairBench.log("%s: DELTA pushes of %d re-weights measured and checked in %.1f s", name, updates, (System.nanoTime() - t0) / 1e9);
            Row[] rows = new Row[ids.size()];
            for (int k = 0; k < ids.size(); k++) {
                String id = ids.get(k);
                double[] bytes = deltaBytes.getOrDefault(id, List.of()).stream().mapToDouble(Long::doubleValue).toArray();
                double[] ch = changed.getOrDefault(id, List.of()).stream().mapToDouble(Integer::doubleValue).toArray();
                rows[k] = new Row(name, id.substring(id.lastIndexOf('-') + 1), updates, bytes.length, complete.getOrDefault(id, 0),
                        RepairBench.median(ch), RepairBench.median(bytes), percentile(bytes, 99),
                        bytes.length == 0 ? Double.NaN : Arrays.stream(bytes).max().getAsDouble(),
                        (long) Arrays.stream(bytes).sum(), fullBytes.get(id), plain.getOrDefault(id, new long[1])[0],
                        batches.getOrDefault(id, new long[CODECS.size()]), nanos.getOrDefault(id, new long[CODECS.size()]));
            }
            return rows;
        }

        CsrGraph graph() {
            return registry.get(graphId).orElseThrow(() -> new IllegalStateException("graph " + graphId + " was not loaded")).resident().graph();
        }

        void feed(SpecificRecord r) {
            Outputs out = processor.process(new InputRecord(TOPIC, 0, offset++, graphId, FrontierCodec.encode(r), System.currentTimeMillis()), false);
            deliver(out);
        }

        void flush() {
            deliver(processor.flushSubscriptions(p -> true, System.currentTimeMillis()));
        }

        /** What a consumer of the results topic gets: each push encoded, measured, decoded, applied to its view. */
        void deliver(Outputs out) {
            if (!out.errors().isEmpty()) {
                throw new IllegalStateException("the worker reported " + out.errors().get(0).getCode() + ": " + out.errors().get(0).getReason());
            }
            Map<String, long[]> pushBytes = new HashMap<>();
            Map<String, QueryResult> heads = new HashMap<>();
            Map<String, Integer> pushChanged = new HashMap<>();
            Map<String, long[]> pushPlain = new HashMap<>();
            Map<String, List<SimpleRecord>> pushRecords = new HashMap<>();
            for (QueryResult r : out.results()) {
                if (r.getReason() == null) continue;
                if (r.getStatus() != ResultStatus.OK || r.getReason() == PushReason.END) {
                    throw new IllegalStateException("push " + r.getReason() + " of " + r.getQueryId() + ": " + r.getStatus() + " " + r.getError());
                }
                byte[] wire = FrontierCodec.encode(r);
                QueryResult decoded;
                try {
                    decoded = FrontierCodec.decode(wire, QueryResult.class);
                } catch (FrontierCodec.MalformedMessageException e) {
                    throw new IllegalStateException(e);
                }
                if (!views.computeIfAbsent(r.getQueryId(), id -> new SubscriptionView()).apply(decoded)) {
                    throw new IllegalStateException("push #" + r.getSequence() + " of " + r.getQueryId() + " was refused (a gap or a repeat)");
                }
                pushBytes.computeIfAbsent(r.getQueryId(), id -> new long[1])[0] += wire.length;
                pushPlain.computeIfAbsent(r.getQueryId(), id -> new long[1])[0] += FrontierCodec.encode(decoded).length;   // expanded by apply
                pushRecords.computeIfAbsent(r.getQueryId(), id -> new ArrayList<>())
                        .add(new SimpleRecord(r.getQueryId().getBytes(StandardCharsets.UTF_8), wire));
                heads.putIfAbsent(r.getQueryId(), r);
                int n = 0;
                if (decoded.getVertices() != null) n += PackedArrays.intCount(decoded.getVertices());
                if (r.getMstEdges() != null) n += PackedArrays.intCount(r.getMstEdges().getSources());
                if (r.getRemovedEdges() != null) n += PackedArrays.intCount(r.getRemovedEdges().getSources());
                pushChanged.merge(r.getQueryId(), n, Integer::sum);
            }
            for (Map.Entry<String, long[]> p : pushBytes.entrySet()) {
                QueryResult head = heads.get(p.getKey());
                long bytes = p.getValue()[0];
                if (head.getReason() == PushReason.INITIAL) {
                    fullBytes.put(p.getKey(), bytes);
                } else if (head.getDelta()) {
                    deltaBytes.computeIfAbsent(p.getKey(), id -> new ArrayList<>()).add(bytes);
                    plain.computeIfAbsent(p.getKey(), id -> new long[1])[0] += pushPlain.get(p.getKey())[0];
                    long[] w = batches.computeIfAbsent(p.getKey(), id -> new long[CODECS.size()]);
                    SimpleRecord[] records = pushRecords.get(p.getKey()).toArray(SimpleRecord[]::new);
                    long[] ns = nanos.computeIfAbsent(p.getKey(), id -> new long[CODECS.size()]);
                    for (int c = 0; c < CODECS.size(); c++) {
                        long t = System.nanoTime();
                        w[c] += MemoryRecords.withRecords(CODECS.get(c), records).sizeInBytes();
                        ns[c] += System.nanoTime() - t;
                    }
                    changed.computeIfAbsent(p.getKey(), id -> new ArrayList<>()).add(pushChanged.get(p.getKey()));
                } else {
                    complete.merge(p.getKey(), 1, Integer::sum);
                }
            }
        }

        /** Every view against a fresh answer on the worker's current graph. */
        void check(CsrGraph g, int source) {
            ResidentGraph host = new CpuBackend().load(g);
            SsspResult sssp = Sssp.run(host, source, null);
            BfsResult bfs = Bfs.run(host, source, null);
            MstResult mst = Mst.run(host, null);
            SubscriptionView sv = views.get("rbench-" + name + "-SSSP"), bv = views.get("rbench-" + name + "-BFS");
            SubscriptionView mv = views.get("rbench-" + name + "-MST");
            String where = name + " after the DELTA pushes";
            if (!Arrays.equals(sv.distances(), sssp.distances())) {
                throw new RepairBench.MismatchException("the SSSP subscriber's view differs from a fresh answer, " + where);
            }
            if (!Arrays.equals(bv.hops(), bfs.hops())) {
                throw new RepairBench.MismatchException("the BFS subscriber's view differs from a fresh answer, " + where);
            }
            UndirectedEdges ue = g.undirectedEdges();
            Map<Long, Double> forest = new HashMap<>();
            for (int id : mst.edgeIds()) forest.put(SubscriptionView.key(ue.u[id] + first, ue.v[id] + first), ue.w[id]);
            if (!forest.equals(mv.forest()) || mv.totalWeight() == null || mv.totalWeight() != mst.totalWeight()) {
                throw new RepairBench.MismatchException("the MST subscriber's view (" + mv.forest().size() + " edges, weight "
                        + mv.totalWeight() + ") differs from a fresh forest (" + forest.size() + " edges, weight " + mst.totalWeight()
                        + "), " + where);
            }
        }
    }

    static double percentile(double[] xs, double p) {
        if (xs.length == 0) return Double.NaN;
        double[] s = xs.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(p / 100 * s.length);
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }

    static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("**DELTA vs FULL bytes** (the worker's subscription service in this process, CPU engine: one DELTA subscription"
                + " per algorithm (SSSP and BFS from the seeded source), then single-edge re-weights, each its own poll batch;"
                + " bytes: the Avro-encoded pushes as published, every chunk, before Kafka's compression; FULL: the complete"
                + " answer (the INITIAL push); pushes: re-weights that changed the answer (BFS: hop counts never change on a"
                + " re-weight); complete: pushes sent whole after a recompute; changes: vertices (SSSP, BFS) or forest edges (MST)"
                + " a push lists; per re-weight: DELTA bytes over the re-weights; plain: the same pushes with plain packed arrays"
                + " (before the compact fields, or compact-delta false); none/lz4/zstd: the DELTA pushes as Kafka record batches"
                + " of that compression.type, one batch per push, and the ms building them took (one thread, this process);"
                + " every view equal to a fresh answer at the end):\n\n");
        b.append("| graph | algorithm | re-weights | DELTA pushes | complete pushes | changes per push (median) | DELTA bytes p50"
                + " | p99 | max | FULL bytes | FULL / DELTA p50 | DELTA bytes in all | FULL mode would send | per re-weight"
                + " | plain per re-weight | plain / compact | batches " + String.join(" | ", CODEC_NAMES) + " | ms "
                + String.join(" | ", CODEC_NAMES) + " |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + "---:|".repeat(2 * CODECS.size()) + "\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %,d | %s | %s | %s | %s | %,d | %s | %,d | %,d | %,.0f | %,.0f | %s |",
                    r.graph(), r.algorithm(), r.updates(), r.deltaPushes(), r.completePushes(), count(r.changedMedian()),
                    count(r.bytesMedian()), count(r.bytesP99()), count(r.bytesMax()), r.fullBytes(),
                    Double.isNaN(r.bytesMedian()) ? "" : String.format(Locale.ROOT, "%,.0fx", r.ratio()), r.deltaBytes(), r.fullModeBytes(),
                    r.perUpdate(), r.plainPerUpdate(),
                    r.deltaBytes() == 0 ? "" : String.format(Locale.ROOT, "%.2fx", (double) r.plainBytes() / r.deltaBytes())));
            for (long w : r.wire()) b.append(String.format(Locale.ROOT, " %,d |", w));
            for (long ns : r.compressNs()) b.append(String.format(Locale.ROOT, " %.1f |", ns / 1e6));
            b.append('\n');
        }
        return b.toString();
    }

    private static String count(double x) {
        return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%,.0f", x);
    }
}
