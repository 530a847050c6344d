package org.frontiergraph.bench.gpu;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsSummaries;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspSummaries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Engine-level throughput (no Kafka, no worker) of N resident graphs worked by N threads at once, one graph a thread
 * as a worker's partitions are: each thread asks {@code --queries} queries of its own copy of the graph, the kinds of
 * a mix in turn, from seeded sources, after {@code --warmup} untimed ones; every answer is compared with the CPU
 * reference (its reached count and largest hop count or distance; exit status 1 if one differs). Each mix runs with
 * lanes on (each graph its own stream and lock, the default) and off ({@code frontier.gpu.lanes=false}: one stream
 * and one lock for all graphs, the engine before lanes), one engine after the other in the same JVM. Prints
 * queries/s, one query's latency percentiles, and the speedup of lanes over one lane at the same N.
 * <p>Query kinds: {@code bfs}, {@code sssp} (SUMMARY of one source, default variants: a cooperative kernel and a
 * reduction, a few bytes back); {@code bfs-full}, {@code sssp-full} (the whole answer copied back: hops or distances
 * and parents); {@code bfs-hostloop} (the whole BFS answer by the {@code hostloop} variant: a plain launch and a
 * 4-byte read-back per level, no cooperative kernel). Mixes are comma-separated, kinds in a mix joined by {@code +}.
 * <pre>java -cp ... org.frontiergraph.bench.gpu.LanesBench [--graphs ny] [--copies 1,2,4] [--queries 200]
 *      [--warmup 20] [--mixes bfs+sssp,bfs-full+sssp-full,bfs-hostloop] [--modes on,off] [--out table.md]</pre>
 * Graph names as {@link GpuBench#build}; a graph whose dataset is absent is skipped.
 */
public final class LanesBench {
    private static final long SEED = 20_261_130L;
    /** Sources each thread draws from (their CPU summaries computed once). */
    private static final int POOL = 16;
    private static final List<String> KINDS = List.of("bfs", "sssp", "bfs-full", "sssp-full", "bfs-hostloop");
    private record Options(List<String> graphs, int[] copies, int queries, int warmup, List<List<String>> mixes,
                           List<String> modes, Path out) {}

    @Command(name = "LanesBench", description = "N graphs x N threads of SUMMARY queries with lanes on and off.")
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--copies", paramLabel = "N", split = ",", description = "graphs (and threads) of each row")
        int[] copies = {1, 2, 4};
        @Option(names = "--queries", paramLabel = "N", description = "timed queries a thread")
        int queries = 200;
        @Option(names = "--warmup", paramLabel = "N", description = "untimed queries a thread first")
        int warmup = 20;
        @Option(names = "--mixes", paramLabel = "K+K,K", description = "kinds (bfs, sssp, bfs-full, sssp-full, bfs-hostloop) "
                + "joined by +, mixes by commas")
        String mixes = "bfs+sssp,bfs-full+sssp-full,bfs-hostloop";
        @Option(names = "--modes", paramLabel = "on|off", split = ",", description = "lanes on, off")
        List<String> modes = List.of("on", "off");
        @Option(names = "--out", paramLabel = "FILE.md", description = "also write the table here")
        Path out;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny");
        }

        @Override
        public Options options(String[] args) {
            for (String m : modes) {
                if (!m.equals("on") && !m.equals("off")) throw new IllegalArgumentException("--modes: on or off, not " + m);
            }
            List<List<String>> parsed = new ArrayList<>();
            for (String mix : mixes.split(",")) {
                List<String> kinds = List.of(mix.split("\\+"));
                for (String k : kinds) {
                    if (!KINDS.contains(k)) throw new IllegalArgumentException("--mixes: unknown kind " + k + " (" + KINDS + ")");
                }
                parsed.add(kinds);
            }
            if (Arrays.stream(copies).anyMatch(c -> c < 1)) throw new IllegalArgumentException("--copies: at least 1");
            return new Options(graphs.graphs(), copies, queries, warmup, parsed, List.copyOf(modes), out);
        }
    }

    /** The CPU's summaries of the pool's sources: reached count and largest hop count / distance of each. */
    private record Expected(int[] sources, long[] bfsReached, int[] bfsMax, long[] ssspReached, double[] ssspMax) {
        static Expected of(CsrGraph g) {
            int[] s = GpuBench.sources(g, POOL);
            long[] br = new long[POOL], sr = new long[POOL];
            int[] bm = new int[POOL];
            double[] sm = new double[POOL];
            for (int i = 0; i < POOL; i++) {
                long[] b = BfsSummaries.summarize(BfsReference.run(g, s[i]).hops());
                br[i] = b[0];
                bm[i] = (int) b[1];
                double[] d = SsspSummaries.summarize(DijkstraReference.run(g, s[i]).distances());
                sr[i] = (long) d[0];
                sm[i] = d[1];
            }
            return new Expected(s, br, bm, sr, sm);
        }
    }

    /** One measurement: a mix, a mode, N graphs and threads, the answers/s and one query's latency percentiles. */
    private record Row(String graph, String mix, String mode, int n, long queries, double seconds, double p50,
                       double p99, int wrong) {
        double perSecond() {
            return queries / seconds;
        }
    }

    /** The table, and whether every answer equalled the CPU's. */
    private record Result(String markdown, boolean ok) {}

    private LanesBench() {}

    /**
     * Exit status 0 when every answer was right, 1 when one was not, 2 for bad usage. (Not through BenchMain, which
     * needs the schemas jar.)
     */
    public static void main(String[] args) throws Exception {
        Options o = BenchCli.options("LanesBench", args, Cli::new);
        if (GpuBackend.unavailableReason().isPresent()) {
            System.out.println("LanesBench skipped: " + GpuBackend.unavailableReason().get());
            return;
        }
        Result r = run(o);
        System.out.println(r.markdown());
        System.exit(r.ok() ? 0 : 1);
    }

    private static Result run(Options o) throws Exception {
        List<Row> rows = new ArrayList<>();
        String device = "";
        int copiesMax = Arrays.stream(o.copies()).max().orElse(1);
        for (String name : o.graphs()) {
            CsrGraph g = GpuBench.build(name);
            if (g == null) {
                System.err.println(name + ": dataset absent, skipped");
                continue;
            }
            Expected e = Expected.of(g);
            for (String mode : o.modes()) {
                try (GpuBackend gpu = Backends.gpu(GpuFlags.settings().withLanes(mode.equals("on")))) {
                    device = gpu.device();
                    if (gpu.lanes() != mode.equals("on")) throw new IllegalStateException("lanes " + gpu.lanes() + " for mode " + mode);
                    List<ResidentGraph> held = new ArrayList<>();
                    try {
                        for (int i = 0; i < copiesMax; i++) held.add(gpu.load(g));
                        for (List<String> mix : o.mixes()) {
                            for (int n : o.copies()) {
                                Row r = measure(name, mix, mode, held.subList(0, n), e, o);
                                rows.add(r);
                                System.err.printf(Locale.ROOT, "%s %s lanes %s, %d x %d: %.0f queries/s, p50 %.2f ms, p99 %.2f ms%s%n",
                                        name, r.mix(), mode, n, n, r.perSecond(), r.p50(), r.p99(),
                                        r.wrong() > 0 ? ", " + r.wrong() + " WRONG" : "");
                            }
                        }
                    } finally {
                        held.forEach(ResidentGraph::close);   // before the engine closes
                    }
                }
            }
        }
        String md = render(device, rows, o);
        if (o.out() != null) Files.writeString(o.out(), md);
        return new Result(md, rows.stream().allMatch(r -> r.wrong() == 0));
    }

    /** N threads, thread i on graph i: warm-up, then the timed queries, all threads started together. */
    private static Row measure(String name, List<String> mix, String mode, List<ResidentGraph> graphs, Expected e,
                               Options o) throws Exception {
        int n = graphs.size();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n), go = new CountDownLatch(1);
            List<Future<double[]>> done = new ArrayList<>();
            int[] wrong = new int[n];
            for (int t = 0; t < n; t++) {
                ResidentGraph r = graphs.get(t);
                int thread = t;
                done.add(pool.submit(() -> {
                    SplittableRandom rnd = new SplittableRandom(SEED + 31L * thread);
                    for (int q = 0; q < o.warmup(); q++) {
                        if (!ask(r, e, rnd, mix.get(q % mix.size()))) wrong[thread]++;
                    }
                    ready.countDown();
                    go.await();
                    double[] ms = new double[o.queries()];
                    for (int q = 0; q < ms.length; q++) {
                        long t0 = System.nanoTime();
                        if (!ask(r, e, rnd, mix.get(q % mix.size()))) wrong[thread]++;
                        ms[q] = (System.nanoTime() - t0) / 1e6;
                    }
                    return ms;
                }));
            }
            ready.await();
            long t0 = System.nanoTime();
            go.countDown();
            List<double[]> all = new ArrayList<>();
            for (Future<double[]> f : done) all.add(f.get());
            double seconds = (System.nanoTime() - t0) / 1e9;
            double[] ms = all.stream().flatMapToDouble(Arrays::stream).sorted().toArray();
            int p99 = (int) Math.min(ms.length - 1, Math.ceil(0.99 * ms.length) - 1);
            return new Row(name, String.join("+", mix), mode, n, ms.length, seconds, ms[ms.length / 2], ms[p99],
                    Arrays.stream(wrong).sum());
        } finally {
            pool.shutdownNow();
        }
    }

    /** One query of {@code kind} from a random source of the pool; whether its answer agrees with the CPU's. */
    private static boolean ask(ResidentGraph r, Expected e, SplittableRandom rnd, String kind) {
        int i = rnd.nextInt(POOL);
        int s = e.sources()[i];
        Sources one = new Sources(new int[] {s});
        switch (kind) {
            case "bfs" -> {
                BfsSummaries got = r.run(Bfs.SUMMARIES, one, null);
                return got.reached()[0] == e.bfsReached()[i] && got.maxHops()[0] == e.bfsMax()[i];
            }
            case "sssp" -> {
                SsspSummaries got = r.run(Sssp.SUMMARIES, one, null);
                return got.reached()[0] == e.ssspReached()[i] && got.maxDistances()[0] == e.ssspMax()[i];
            }
            case "bfs-full", "bfs-hostloop" -> {
                long[] got = BfsSummaries.summarize(Bfs.run(r, s, kind.equals("bfs-full") ? null : "hostloop").hops());
                return got[0] == e.bfsReached()[i] && got[1] == e.bfsMax()[i];
            }
            case "sssp-full" -> {
                double[] got = SsspSummaries.summarize(Sssp.run(r, s, null).distances());
                return (long) got[0] == e.ssspReached()[i] && got[1] == e.ssspMax()[i];
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    private static String render(String device, List<Row> rows, Options o) {
        StringBuilder md = new StringBuilder("### LanesBench: N graphs x N threads, engine level\n\n")
                .append("Machine: ").append(Machine.describe()).append("; GPU: ").append(device).append(".\n")
                .append(String.format(Locale.ROOT, "Each thread: %d queries of one source (the mix's kinds in turn) of its "
                        + "own copy of the graph after %d warm-up ones; lanes on: a stream and lock per graph; off: one "
                        + "for all.%n%n", o.queries(), o.warmup()))
                .append("| graph | mix | lanes | graphs x threads | queries | wall s | queries/s | p50 ms | p99 ms | on / off |\n")
                .append("|---|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            String ratio = "";
            if (r.mode().equals("on")) {
                for (Row off : rows) {
                    if (off.mode().equals("off") && off.graph().equals(r.graph()) && off.mix().equals(r.mix()) && off.n() == r.n()) {
                        ratio = String.format(Locale.ROOT, "%.2fx", r.perSecond() / off.perSecond());
                    }
                }
            }
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %d x %d | %,d | %.2f | %,.0f | %.2f | %.2f | %s |%n",
                    r.graph(), r.mix(), r.mode(), r.n(), r.n(), r.queries(), r.seconds(), r.perSecond(), r.p50(), r.p99(), ratio));
        }
        int wrong = rows.stream().mapToInt(Row::wrong).sum();
        md.append(wrong == 0 ? "\nEvery answer agrees with the CPU reference.\n"
                : "\n" + wrong + " answers DIFFER from the CPU reference.\n");
        return md.toString();
    }
}
