package org.frontiergraph.bench.incremental;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstRepair;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.standing.BfsRepair;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeRepair;
import org.frontiergraph.schema.codec.FrontierCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Standing queries at engine level (no Kafka): what keeping an answer up to date by incremental repair costs against
 * recomputing it from scratch. Per graph, for SSSP and BFS from one seeded source and for MST: batches of k random
 * single-edge updates ({@link RandomEdits}: re-weights up and down; then removals and insertions) applied to a
 * {@link MutableGraph} one update at a time, as the worker applies a poll batch's records; then
 * <ul>
 *   <li>the repair of the previous answer from the batch's {@link ChangedEdges} ({@link SsspRepair}, {@link BfsRepair}
 *       with their default budgets, a standing {@link MstRepair}), timed on the host; a repair that gives up (null:
 *       above the crossover) counts as fallen back, its time is what it spent before giving up, and the answer is
 *       replaced by the recompute;</li>
 *   <li>the recompute from scratch on the CPU engine (wall time) and, where a GPU is present, on the GPU engine: a
 *       {@link ResidentGraph} of {@link Backends#gpu()} that received the same updates, its device copy brought up to
 *       date first ({@code sync}, timed apart), then the query's wall time (kernels and copying the answer back).</li>
 * </ul>
 * Every repaired answer is checked against the CPU recompute (SSSP distances and BFS hops exactly, parents by the
 * verifiers; the MST's edge ids, total weight and components exactly) and every GPU answer against the CPU one; any
 * mismatch aborts the run (exit status 1). What every standing answer and recompute of a batch shares is timed apart
 * ({@link SharedRow}): applying the updates, the merge of structural changes ({@code current()}), the transpose the
 * repairs read on a directed graph and the undirected edge list MST ids refer to (both cached per graph version).
 *
 * <p>Then {@link DeltaBytes}: the worker's subscription service in-process, pushing DELTA answers after single-edge
 * re-weights; their Avro-encoded size against the complete (FULL) answer's.
 *
 * <p>Prints markdown tables (medians over the batches) with the date, the machine and the command, and appends them
 * to {@code --out}. Exit status 0 when every answer agreed, 1 on a mismatch or a failure, 2 on a bad command line.
 * <pre>java -cp ... org.frontiergraph.bench.incremental.RepairBench [--graphs ny,kron20] [--batches 1,10,100,10000]
 *      [--repeats 5] [--series reweights,structural] [--backend auto|gpu|cpu] [--delta-updates 300] [--seed 7]
 *      [--out repair-bench.md] [--command TEXT]</pre>
 * Graph names as {@link GpuBench#edges} takes them (ny, kronSCALE, uniformSCALE, gridSIDE); ny is replaced by grid512
 * (a 512 x 512 road-like grid, 262,144 vertices) when its dataset is absent.
 */
public final class RepairBench {
    private static final String[] ALGORITHMS = {"SSSP", "BFS", "MST"};

    private RepairBench() {}

    /** The command line. */
    record Options(List<String> graphs, int[] batches, int repeats, List<RandomEdits.Series> series, String backend,
                   int deltaUpdates, long seed, Path out, String command, List<String> parts, int[] trees) {
        static Options parse(String[] args) {
            return BenchCli.parse(new Cli(), args);
        }
    }

    @Command(name = "RepairBench", description = "Standing answers kept by incremental repair against recomputing them, "
            + "and DELTA against FULL push bytes.", footer = {"",
            "ny is replaced by grid512 when its dataset is absent. --delta-updates 0 skips the DELTA/FULL bytes table.",
            "Parts: repair (one answer per algorithm, repaired on the host vs recomputed), device (SSSP trees repaired on",
            "the GPU vs GPU recompute vs host repair, --trees of them; needs a GPU)."})
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--batches", paramLabel = "K", split = ",", description = "updates a batch")
        int[] batches = {1, 10, 100, 10_000};
        @Option(names = "--repeats", paramLabel = "N", description = "batches of each size")
        int repeats = 5;
        @Option(names = "--series", paramLabel = "S", split = ",", description = "reweights, structural")
        List<String> series = List.of("reweights", "structural");
        @Mixin
        BenchCli.Backend backend;
        @Option(names = "--delta-updates", paramLabel = "N", description = "re-weights of the DELTA/FULL bytes table")
        int deltaUpdates = 300;
        @Option(names = "--parts", paramLabel = "P,P", description = "repair, device")
        String parts = "repair,device";
        @Option(names = "--trees", paramLabel = "N", split = ",", description = "the device part's standing SSSP trees")
        int[] trees = {1, 100};
        @Option(names = "--seed", paramLabel = "N", description = "sources and updates")
        long seed = 7;
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny,kron20", "--backend", "auto");
        }

        @Override
        public Options options(String[] args) {
            if (batches.length == 0 || Arrays.stream(batches).anyMatch(b -> b < 1)) throw new IllegalArgumentException("--batches must be positive");
            if (repeats < 1) throw new IllegalArgumentException("--repeats must be at least 1");
            if (deltaUpdates < 0) throw new IllegalArgumentException("--delta-updates must not be negative");
            List<String> p = Arrays.stream(parts.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
            if (p.isEmpty() || !List.of("repair", "device").containsAll(p)) throw new IllegalArgumentException("--parts repair,device");
            if (trees.length == 0 || Arrays.stream(trees).anyMatch(t -> t < 1)) throw new IllegalArgumentException("--trees must be positive");
            return new Options(graphs.graphs(), batches, repeats, series.stream().map(RandomEdits.Series::parse).distinct().toList(),
                    backend.backend(), deltaUpdates, seed, output.out(), output.command("RepairBench", args), p, trees);
        }
    }

    /** One row: medians over {@code batches} batches of {@code batch} updates. NaN: not measured (no GPU). */
    record Row(String graph, String algorithm, String series, int batch, int batches, double repairMs, double cpuMs,
               double gpuSyncMs, double gpuMs, int fellBack, double changedMedian) {
        double speedUpCpu() { return cpuMs / repairMs; }

        double speedUpGpu() { return gpuMs / repairMs; }
    }

    /**
     * The per-batch work every standing answer of a graph shares, medians in ms: applying the k updates to the host
     * graph one by one, the structural merge ({@code current()}), the transpose (directed graphs: the repairs read it
     * after a structural change; derived from the previous version's, which the batch before read) and the undirected
     * edge list (MST's edge ids, the repair's and the recompute's), the last two cached per graph version and kept up
     * to date by re-weights, so near 0 after re-weight batches.
     */
    record SharedRow(String graph, String series, int batch, double applyMs, double mergeMs, double transposeMs,
                     double edgeListMs) {}

    /** A repaired answer that differs from the recompute, or a GPU answer that differs from the CPU's. */
    static final class MismatchException extends RuntimeException {
        MismatchException(String message) { super(message); }
    }

    /** What a run measured and its markdown. */
    record Outcome(List<String> graphs, List<Row> rows, List<SharedRow> shared, List<DeltaBytes.Row> deltas, List<String> notes,
                   String markdown) {}

    public static void main(String[] args) {
        BenchMain.main("RepairBench", args, Cli::new, o -> {
            try {
                return new BenchMain.Result(run(o).markdown(), true);
            } catch (MismatchException e) {
                return new BenchMain.Result("RepairBench: MISMATCH: " + e.getMessage(), false);
            }
        });
    }

    static Outcome run(Options o) throws IOException {
        FrontierCodec.trust();
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        List<SharedRow> shared = new ArrayList<>();
        List<DeltaBytes.Row> deltas = new ArrayList<>();
        List<DeviceRows.Row> device = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> done = new ArrayList<>();
        GpuBackend gpu = null;
        if (!o.backend().equals("cpu")) {
            var why = GpuBackend.unavailableReason();
            if (why.isEmpty()) gpu = Backends.gpu();
            else if (o.backend().equals("gpu")) throw new IllegalStateException("--backend gpu but " + why.get());
            else notes.add("no GPU engine (" + why.get() + "): the GPU columns are empty");
        }
        String engine = gpu == null ? "CPU engine only" : "CPU engine and GPU engine on " + gpu.device();
        try {
            for (String asked : o.graphs()) {
                String name = asked;
                GpuBench.Edges e = GpuBench.edges(name);
                if (e == null && name.equals("ny")) {
                    name = "grid512";
                    notes.add("ny: its dataset was not found (../shared/datasets or FRONTIER_DATASETS); grid512, a 512 x 512"
                            + " road-like grid, stands in");
                    e = GpuBench.edges(name);
                }
                if (e == null) {
                    notes.add(name + ": not found, skipped");
                    continue;
                }
                CsrGraph g = GraphBuilder.build(e.edges());
                log("%s: %s", name, g);
                notes.add(name + ": " + g);
                if (o.parts().contains("repair")) new OnGraph(name, g, gpu, o, rows, shared, notes).run();
                if (o.parts().contains("device") && gpu != null) {
                    device.addAll(DeviceRows.measure(name, g, gpu, o.trees(), o.batches(), o.repeats(), o.series(), o.seed()));
                }
                done.add(name);
                if (o.deltaUpdates() > 0 && o.parts().contains("repair")) {
                    DeltaBytes.Row[] r = DeltaBytes.measure(name, e, o.deltaUpdates(), o.seed());
                    deltas.addAll(List.of(r));
                }
                if (o.out() != null) log("%s done; the table is written at the end", name);
            }
        } finally {
            if (gpu != null) gpu.close();
        }
        if (o.parts().contains("device") && gpu == null) notes.add("no GPU engine: no device part");
        String markdown = markdown(o, started, (System.nanoTime() - t0) / 1e9, engine, rows, shared, deltas, notes);
        if (!device.isEmpty()) markdown += "\n" + DeviceRows.markdown(device);
        if (o.out() != null) {
            Path parent = o.out().toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(o.out(), markdown + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return new Outcome(done, rows, shared, deltas, notes, markdown);
    }

    /** The measurements on one graph: every series, batch size and repeat, the standing answers carried along. */
    private static final class OnGraph {
        private final String name;
        private final GpuBackend gpu;
        private final Options o;
        private final List<Row> rows;
        private final List<SharedRow> shared;
        private final List<String> notes;
        private final CpuBackend cpu = new CpuBackend();
        private final MutableGraph m;
        /** The place of the repairs in {@link #m}'s change log. */
        private final ChangeLog.Cursor changed;
        private final ResidentGraph dev;
        private final int source;
        private final SplittableRandom random;
        private SsspResult sssp;
        private BfsResult bfs;
        private MstResult mst;
        private MstRepair forest;

        /** Per batch: [algorithm][repair, cpu, gpu, changed, fellBack], the GPU sync, and [apply, merge, transpose, edge list]. */
        private record Measured(double[][] byAlgorithm, double gpuSyncMs, double[] shared) {}

        OnGraph(String name, CsrGraph g, GpuBackend gpu, Options o, List<Row> rows, List<SharedRow> shared, List<String> notes) {
            this.name = name;
            this.gpu = gpu;
            this.o = o;
            this.rows = rows;
            this.shared = shared;
            this.notes = notes;
            this.m = new MutableGraph(copy(g));
            this.changed = m.log().cursor(ChangeLog.Detail.EDGES);
            this.dev = gpu == null ? null : gpu.load(copy(g));
            this.source = GpuBench.sources(g, 1)[0];
            this.random = new SplittableRandom(o.seed() ^ name.hashCode());
        }

        void run() {
            try {
                CsrGraph g = m.current();
                ResidentGraph host = cpu.load(g);
                sssp = Sssp.run(host, source, null);
                bfs = Bfs.run(host, source, null);
                mst = Mst.run(host, null);
                forest = new MstRepair(g, mst);
                if (dev != null) compareGpu(g, Sssp.run(dev, source, null), Bfs.run(dev, source, null), Mst.run(dev, null), "before any update");
                long reached = Arrays.stream(bfs.hops()).filter(h -> h >= 0).count();
                notes.add(String.format(Locale.ROOT, "%s: source %d reaches %,d vertices; MST %,d edges, %d components", name,
                        source, reached, mst.edgeIds().length, mst.components()));
                // warm-up (the JIT), checked like the rest: one small batch of each kind
                for (RandomEdits.Series s : o.series()) {
                    for (int k : new int[] {1, 10}) batch(s, k);
                }
                for (RandomEdits.Series s : o.series()) {
                    for (int k : o.batches()) {
                        List<Measured> ms = new ArrayList<>();
                        for (int r = 0; r < o.repeats(); r++) ms.add(batch(s, k));
                        double[][] sh = new double[4][];
                        for (int c = 0; c < 4; c++) {
                            final int at = c;
                            sh[c] = ms.stream().mapToDouble(x -> x.shared()[at]).toArray();
                        }
                        shared.add(new SharedRow(name, s.label(), k, median(sh[0]), median(sh[1]), median(sh[2]), median(sh[3])));
                        for (int a = 0; a < ALGORITHMS.length; a++) {
                            final int at = a;
                            double[] repair = ms.stream().mapToDouble(x -> x.byAlgorithm()[at][0]).toArray();
                            double[] cpuMs = ms.stream().mapToDouble(x -> x.byAlgorithm()[at][1]).toArray();
                            double[] gpuMs = ms.stream().mapToDouble(x -> x.byAlgorithm()[at][2]).toArray();
                            double[] changed = ms.stream().mapToDouble(x -> x.byAlgorithm()[at][3]).toArray();
                            int fell = (int) ms.stream().filter(x -> x.byAlgorithm()[at][4] > 0).count();
                            double[] sync = ms.stream().mapToDouble(Measured::gpuSyncMs).toArray();
                            Row row = new Row(name, ALGORITHMS[a], s.label(), k, ms.size(), median(repair), median(cpuMs),
                                    median(sync), median(gpuMs), fell, median(changed));
                            rows.add(row);
                            log("%s", rowText(row).trim());
                        }
                    }
                }
            } finally {
                if (dev != null) dev.close();
            }
        }

        /** One batch of k updates: applied, then each answer repaired, recomputed, checked. */
        private Measured batch(RandomEdits.Series series, int k) {
            RandomEdits edits = new RandomEdits(m.current(), series, random);
            List<EdgeEdits> applied = new ArrayList<>(k);
            long applyNanos = 0;
            for (int i = 0; i < k; i++) {
                EdgeEdits e = edits.next();
                long a0 = System.nanoTime();
                m.apply(e, 0, Long.MAX_VALUE);
                applyNanos += System.nanoTime() - a0;
                applied.add(e);
            }
            if (dev != null) for (EdgeEdits e : applied) dev.mutable().apply(e, 0, Long.MAX_VALUE);
            ChangedEdges changes = changed.read().edges();
            // shared by every standing answer and by the recomputes, so in neither column: the merge of structural
            // changes, the transpose the repairs read on a directed graph, the undirected edge list MST ids refer to
            long c0 = System.nanoTime();
            CsrGraph g = m.current();
            long c1 = System.nanoTime();
            g.transpose();
            long c2 = System.nanoTime();
            g.undirectedEdges();
            long c3 = System.nanoTime();
            double[] sharedMs = {ms(applyNanos), ms(c1 - c0), ms(c2 - c1), ms(c3 - c2)};
            ResidentGraph host = cpu.load(g);
            String where = name + " after a batch of " + k + " " + series.label() + " (" + g + ")";
            double[][] out = new double[ALGORITHMS.length][5];

            long t0 = System.nanoTime();
            TreeRepair.Repaired<SsspResult> sr = SsspRepair.repair(g, sssp, changes);
            long t1 = System.nanoTime();
            SsspResult sf = Sssp.run(host, source, null);
            long t2 = System.nanoTime();
            if (sr != null) {
                check(Arrays.equals(sr.result().distances(), sf.distances()), "SSSP repaired distances differ from the recompute", where);
                check(SsspVerifier.verify(g, source, sr.result(), sf), "SSSP repaired answer", where);
            }
            sssp = sr != null ? sr.result() : sf;
            out[0] = new double[] {ms(t1 - t0), ms(t2 - t1), Double.NaN, sr == null ? Double.NaN : sr.changed().length, sr == null ? 1 : 0};

            t0 = System.nanoTime();
            TreeRepair.Repaired<BfsResult> br = BfsRepair.repair(g, bfs, changes);
            t1 = System.nanoTime();
            BfsResult bf = Bfs.run(host, source, null);
            t2 = System.nanoTime();
            if (br != null) {
                check(Arrays.equals(br.result().hops(), bf.hops()), "BFS repaired hops differ from the recompute", where);
                check(BfsVerifier.verify(g, source, br.result(), bf), "BFS repaired answer", where);
            }
            bfs = br != null ? br.result() : bf;
            out[1] = new double[] {ms(t1 - t0), ms(t2 - t1), Double.NaN, br == null ? Double.NaN : br.changed().length, br == null ? 1 : 0};

            t0 = System.nanoTime();
            MstRepair.Repaired mr = forest.repair(g, changes);
            t1 = System.nanoTime();
            MstResult mf = Mst.run(host, null);
            t2 = System.nanoTime();
            if (mr != null) {
                MstResult r = mr.result();
                check(Arrays.equals(r.edgeIds(), mf.edgeIds()) && r.totalWeight() == mf.totalWeight() && r.components() == mf.components(),
                        "MST repaired forest differs from the recompute: " + r.edgeIds().length + " edges, weight " + r.totalWeight()
                                + ", " + r.components() + " components against " + mf.edgeIds().length + ", " + mf.totalWeight() + ", "
                                + mf.components() + "; verifier: " + MstVerifier.verify(g, r, mf).message(), where);
                mst = r;
            } else {
                mst = mf;
                forest = new MstRepair(g, mf);   // the worker's fallback: a new standing forest from the recompute
            }
            out[2] = new double[] {ms(t1 - t0), ms(t2 - t1), Double.NaN,
                    mr == null ? Double.NaN : mr.removedU().length + mr.addedEdgeIds().length, mr == null ? 1 : 0};

            double sync = Double.NaN;
            if (dev != null) {
                long s0 = System.nanoTime();
                dev.sync();
                sync = ms(System.nanoTime() - s0);
                long g0 = System.nanoTime();
                SsspResult gs = Sssp.run(dev, source, null);
                long g1 = System.nanoTime();
                BfsResult gb = Bfs.run(dev, source, null);
                long g2 = System.nanoTime();
                MstResult gm = Mst.run(dev, null);
                long g3 = System.nanoTime();
                out[0][2] = ms(g1 - g0);
                out[1][2] = ms(g2 - g1);
                out[2][2] = ms(g3 - g2);
                compareGpu(g, gs, gb, gm, where);
            }
            return new Measured(out, sync, sharedMs);
        }

        /** The GPU engine's answers against the CPU-engine answers held now (sssp, bfs, mst: just checked). */
        private void compareGpu(CsrGraph g, SsspResult gs, BfsResult gb, MstResult gm, String where) {
            check(Arrays.equals(gs.distances(), sssp.distances()), "GPU SSSP distances differ from the CPU engine's", where);
            check(SsspVerifier.verify(g, source, gs, sssp), "GPU SSSP answer", where);
            check(Arrays.equals(gb.hops(), bfs.hops()), "GPU BFS hops differ from the CPU engine's", where);
            check(BfsVerifier.verify(g, source, gb, bfs), "GPU BFS answer", where);
            check(Arrays.equals(gm.edgeIds(), mst.edgeIds()) && gm.totalWeight() == mst.totalWeight(),
                    "GPU MST forest differs from the CPU engine's", where);
        }
    }

    private static void check(boolean ok, String what, String where) {
        if (!ok) throw new MismatchException(what + ", " + where);
    }

    private static void check(Verification v, String what, String where) {
        if (!v.ok()) throw new MismatchException(what + ": " + v.message() + ", " + where);
    }

    private static CsrGraph copy(CsrGraph g) {
        return new MutableGraph(g).snapshot();
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** Median of the values that are not NaN; NaN when none is. */
    static double median(double[] xs) {
        double[] s = Arrays.stream(xs).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) return Double.NaN;
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static String markdown(Options o, ZonedDateTime started, double seconds, String engine, List<Row> rows,
                           List<SharedRow> shared, List<DeltaBytes.Row> deltas, List<String> notes) {
        StringBuilder b = new StringBuilder();
        b.append("### RepairBench, ").append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
        b.append("- command: `").append(o.command()).append("`\n");
        for (String line : Machine.describe().split("\n")) b.append("- ").append(line.replaceAll(" +", " ")).append('\n');
        b.append("- GPU: ").append(Machine.gpus().replace("\n", "; ")).append("; engines: ").append(engine).append('\n');
        b.append(String.format(Locale.ROOT, "- settings: %d timed batches a row (medians), after one untimed batch of 1 and of 10"
                + " updates per series; seed %d; took %.0f s%n", o.repeats(), o.seed(), seconds));
        for (String n : notes) b.append("- ").append(n).append('\n');
        if (!rows.isEmpty()) {
            b.append("\n**Repair vs recompute** (a batch: k single-edge updates applied one by one to the host graph, then each"
                    + " standing answer repaired from the batch's changed edges; recompute: from scratch on the CPU engine, wall"
                    + " time, and on the GPU engine after its copy caught up (GPU sync), query wall time with the answer copied"
                    + " back; speed-up: recompute / repair; fell back: batches whose repair gave up above the crossover, its time"
                    + " then being what it spent before giving up; changes: vertices (SSSP, BFS) or forest edges (MST) the repair"
                    + " reported changed, median over the repairs that completed; every repaired answer equal to the recompute):\n\n");
            b.append("| graph | algorithm | updates | batch | repair ms | recompute ms CPU | GPU sync ms | recompute ms GPU"
                    + " | speed-up vs CPU | speed-up vs GPU | fell back | changes |\n");
            b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Row r : rows) b.append(rowText(r));
            b.append("\n**Shared per batch** (in neither column above, medians: applying the k updates to the host graph one by"
                    + " one; then, once per batch for every standing answer and recompute, the merge of structural changes, the"
                    + " transpose the repairs read on a directed graph (derived from the previous version's) and the undirected"
                    + " edge list MST ids refer to; the last two are cached per graph version and kept current by re-weights):\n\n");
            b.append("| graph | updates | batch | apply ms | merge ms | transpose ms | edge list ms |\n|---|---|---:|---:|---:|---:|---:|\n");
            for (SharedRow r : shared) {
                b.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.3f | %.2f | %.2f | %.2f |%n", r.graph(), r.series(), r.batch(),
                        r.applyMs(), r.mergeMs(), r.transposeMs(), r.edgeListMs()));
            }
        }
        if (!deltas.isEmpty()) {
            b.append("\n").append(DeltaBytes.markdown(deltas));
        }
        boolean gpu = rows.stream().anyMatch(r -> !Double.isNaN(r.gpuMs()));
        b.append("\nEvery repaired answer equalled the recompute").append(gpu ? "; every GPU answer the CPU engine's" : "")
                .append(deltas.isEmpty() ? "" : "; every subscriber's view a fresh answer").append(".\n");
        return b.toString();
    }

    static String rowText(Row r) {
        return String.format(Locale.ROOT, "| %s | %s | %s | %,d | %s | %s | %s | %s | %s | %s | %d/%d | %s |%n", r.graph(),
                r.algorithm(), r.series(), r.batch(), num(r.repairMs(), 3), num(r.cpuMs(), 2), num(r.gpuSyncMs(), 2),
                num(r.gpuMs(), 2), times(r.speedUpCpu()), times(r.speedUpGpu()), r.fellBack(), r.batches(),
                Double.isNaN(r.changedMedian()) ? "" : String.format(Locale.ROOT, "%,.0f", r.changedMedian()));
    }

    private static String num(double x, int digits) {
        return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%." + digits + "f", x);
    }

    private static String times(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return "";
        return x >= 10 ? String.format(Locale.ROOT, "%,.0fx", x) : String.format(Locale.ROOT, "%.2fx", x);
    }

    static void log(String format, Object... args) {
        System.err.println("[repair-bench] " + String.format(Locale.ROOT, format, args));
    }

    /** For tests: the rows by graph, algorithm, series and batch. */
    static Map<String, Row> byKey(List<Row> rows) {
        Map<String, Row> m = new LinkedHashMap<>();
        for (Row r : rows) m.put(r.graph() + "/" + r.algorithm() + "/" + r.series() + "/" + r.batch(), r);
        return m;
    }
}
