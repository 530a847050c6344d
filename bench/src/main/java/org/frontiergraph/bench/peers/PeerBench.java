package org.frontiergraph.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.cc.Cc;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * Frontier against the peers (gapbs BFS, SSSP and CC, ECL-MST), side by side on the same files and sources. Two steps,
 * with {@code deploy/gpu/peers.sh} running the peers between them (the layout of the work folder: {@link GraphDir}):
 *
 * <pre>PeerBench frontier --work DIR [--graphs ny,kron22,uniform22] [--sources 16] [--check 2] [--mst-runs 16]
 *                    [--engine gpu|cpu]
 * PeerBench compare  --work DIR [--out peers.md] [--command "how it was run"] [--trials 4]</pre>
 *
 * {@code frontier} builds each graph as {@code GpuBench} does (Kronecker / uniform with seed 20260101, weights
 * 1..255; USA-road-d.NY from the datasets folder), writes it as {@code .sg}, {@code .wsg} and {@code .egr}, picks
 * GpuBench's seeded sources of non-zero degree, times Frontier's default BFS, SSSP, MST and CC (kernel time, two
 * warm-up runs, then every source once, or {@code --mst-runs} runs of the whole-graph MST and CC; median), and writes
 * Frontier's answers for the first {@code --check} sources, its MST and its CC labels for the agreement checks. {@code compare} is {@link PeerReport}: it reads the peers' logs and
 * answers, checks that the answers agree and prints the ratio table. The {@code cpu} engine lets the whole pipeline
 * run on a machine without a GPU (its times are then the CPU engine's).
 */
public final class PeerBench {
    /** GAP's delta-stepping deltas (shared/peers/README.md): road graphs, and Kronecker / uniform with weights 1..255. */
    static final int ROAD_DELTA = 50_000, SYNTHETIC_DELTA = 2;

    /** The step to run, and its exit status. */
    interface Step {
        int run() throws IOException;
    }

    @Command(name = "PeerBench", description = "Frontier against the peers (gapbs, ECL-MST) on the same files and sources.",
            subcommands = {FrontierStep.class, CompareStep.class})
    static final class Cli implements BenchCli.Command<Step> {
        @Spec
        CommandSpec spec;

        @Override
        public Step options(String[] args) {
            ParseResult sub = spec.commandLine().getParseResult().subcommand();
            if (sub == null) throw new IllegalArgumentException("no step given (frontier or compare)");
            return (Step) sub.commandSpec().userObject();
        }
    }

    @Command(name = "frontier", description = "Builds each graph, writes its files and sources for the peers, times "
            + "Frontier's BFS, SSSP, MST and CC and writes the answers the agreement checks read.")
    static final class FrontierStep implements Step {
        @Option(names = "--work", paramLabel = "DIR", required = true, description = "the work folder")
        Path work;
        @Option(names = "--graphs", paramLabel = "G", split = ",", description = "graphs as GpuBench builds them")
        List<String> graphs = List.of("ny", "kron22", "uniform22");
        @Option(names = "--sources", paramLabel = "N", description = "GpuBench's seeded sources of non-zero degree")
        int sources = 16;
        @Option(names = "--check", paramLabel = "N", description = "sources whose answers are written for the checks")
        int check = 2;
        @Option(names = "--mst-runs", paramLabel = "N", description = "timed runs of the whole-graph MST and CC (default: --sources)")
        int mstRuns = -1;
        @Option(names = "--engine", paramLabel = "gpu|cpu", description = "Frontier's engine")
        String engine = "gpu";

        @Override
        public int run() throws IOException {
            return frontier(work, graphs, sources, Math.min(check, sources), mstRuns < 0 ? sources : mstRuns, engine);
        }
    }

    @Command(name = "compare", description = "Reads the peers' logs and answers, checks that they agree, prints the ratios.")
    static final class CompareStep implements Step {
        @Option(names = "--work", paramLabel = "DIR", required = true, description = "the work folder")
        Path work;
        @Option(names = "--out", paramLabel = "FILE.md", description = "also write the table here")
        Path out;
        @Option(names = "--command", paramLabel = "TEXT", description = "how it was run")
        String command;
        @Option(names = "--trials", paramLabel = "N", description = "gapbs -n")
        int trials = 4;

        @Override
        public int run() throws IOException {
            return PeerReport.report(work, out, command, trials);
        }
    }

    public static void main(String[] args) throws Exception {
        System.exit(BenchCli.options("PeerBench", args, Cli::new).run());
    }

    /** The Frontier step; returns the exit status (0 when every graph was written and timed). */
    static int frontier(Path work, List<String> graphs, int sourceCount, int check, int mstRuns, String engineName)
            throws IOException {
        if (engineName.equals("gpu") && GpuBackend.unavailableReason().isPresent()) {
            System.out.println("PeerBench: no GPU engine here: " + GpuBackend.unavailableReason().get());
            return 3;
        }
        Files.createDirectories(work);
        List<String> done = new ArrayList<>();
        int status = 0;
        try (ComputeBackend engine = engineName.equals("gpu") ? Backends.gpu() : Backends.cpu()) {
            String device = engine instanceof GpuBackend gpu ? gpu.device()
                    : "CPU engine, " + Runtime.getRuntime().availableProcessors() + " cores";
            System.out.println("Frontier engine: " + engineName + " (" + device + ")");
            for (String name : graphs) {
                long t0 = System.nanoTime();
                CsrGraph g = GpuBench.build(name);
                if (g == null) {
                    System.out.println(name + ": not found (FRONTIER_DATASETS), skipped");
                    continue;
                }
                long built = System.nanoTime();
                System.out.println(name + ": " + g + " built in " + ms(built - t0) + " ms");
                GraphDir dir = GraphDir.of(work, name);
                try {
                    Files.createDirectories(dir.dir());
                    writeFiles(g, dir);
                    System.out.println(name + ": .sg .wsg .egr written in " + ms(System.nanoTime() - built) + " ms ("
                            + (Files.size(dir.sg()) + Files.size(dir.wsg()) + Files.size(dir.egr()) >> 20) + " MiB)");
                    int[] sources = GpuBench.sources(g, sourceCount);
                    int[] checked = Arrays.copyOf(sources, check);
                    Files.writeString(dir.env(), "SOURCES=\"" + join(sources) + "\"\nCHECK=\"" + join(checked)
                            + "\"\nDELTA=" + delta(name, g) + "\n");
                    String props = time(name, g, engine, device, sources, checked, mstRuns, dir);
                    Files.writeString(dir.frontier(), props);
                    System.out.print(props);
                    done.add(name);
                } catch (RuntimeException e) {
                    System.out.println(name + ": FAILED: " + e);
                    e.printStackTrace(System.out);
                    status = 1;
                }
            }
        }
        Files.write(work.resolve(GraphDir.GRAPHS), done);
        return status;
    }

    static void writeFiles(CsrGraph g, GraphDir dir) throws IOException {
        PeerFiles.writeSg(g, dir.sg());
        PeerFiles.writeWsg(g, dir.wsg());
        PeerFiles.writeEgr(g, dir.egr());
    }

    /**
     * Frontier's side of one graph: the answers of the check sources, the MST and the CC labels written for the
     * agreement checks,
     * then the timed runs. Returns frontier.properties.
     */
    static String time(String name, CsrGraph g, ComputeBackend engine, String device, int[] sources, int[] checked,
                       int mstRuns, GraphDir dir) throws IOException {
        try (ResidentGraph resident = engine.load(g)) {
            for (int s : checked) {
                PeerFiles.writeInts(dir.frontierBfs(s), Bfs.run(resident, s, null).hops());
                PeerFiles.writeInts(dir.frontierSssp(s), distancesAsInt32(Sssp.run(resident, s, null)));
            }
            MstResult mst = Mst.run(resident, null);
            CcResult cc = Cc.run(resident, null);
            PeerFiles.writeInts(dir.frontierCc(), cc.labels());
            double[] bfs = timed(sources, s -> Bfs.run(resident, s, null).timing());
            double[] sssp = timed(sources, s -> Sssp.run(resident, s, null).timing());
            double[] mstMs = timed(IntStream.range(0, mstRuns).toArray(), s -> Mst.run(resident, null).timing());
            double[] ccMs = timed(IntStream.range(0, mstRuns).toArray(), s -> Cc.run(resident, null).timing());
            if (mst.totalWeight() != Math.rint(mst.totalWeight())) {
                throw new IllegalStateException("MST weight " + mst.totalWeight() + " is not an integer");
            }
            StringBuilder p = new StringBuilder();
            p.append("graph=").append(name).append('\n');
            p.append("vertices=").append(g.vertexCount()).append('\n');
            p.append("arcs=").append(g.arcCount()).append('\n');
            p.append("directed=").append(g.directed()).append('\n');
            p.append("engine=").append(engine.name()).append('\n');
            p.append("device=").append(device).append('\n');
            p.append("sources=").append(join(sources)).append('\n');
            p.append("check=").append(join(checked)).append('\n');
            p.append("bfs.ms=").append(num(median(bfs))).append('\n');
            p.append("bfs.runs=").append(nums(bfs)).append('\n');
            p.append("sssp.ms=").append(num(median(sssp))).append('\n');
            p.append("sssp.runs=").append(nums(sssp)).append('\n');
            p.append("mst.ms=").append(num(median(mstMs))).append('\n');
            p.append("mst.runs=").append(nums(mstMs)).append('\n');
            p.append("mst.weight=").append((long) mst.totalWeight()).append('\n');
            p.append("mst.edges=").append(mst.edgeIds().length).append('\n');
            p.append("mst.components=").append(mst.components()).append('\n');
            p.append("cc.ms=").append(num(median(ccMs))).append('\n');
            p.append("cc.runs=").append(nums(ccMs)).append('\n');
            p.append("cc.components=").append(cc.components()).append('\n');
            p.append("cc.largest=").append(cc.largest()).append('\n');
            p.append("mst.hash=").append(Long.toUnsignedString(edgeSetHash(g.undirectedEdges(), mst.edgeIds())))
                    .append('\n');
            return p.toString();
        }
    }

    /**
     * An order-free hash of a set of undirected edges: the sum (mod 2^64) of splitmix64's finalizer over
     * {@code (u << 32) | v}, u < v. ecl-mst-runs (deploy/gpu/peers.sh) computes the same over ECL-MST's edges.
     */
    static long edgeSetHash(UndirectedEdges edges, int[] ids) {
        long h = 0;
        for (int id : ids) h += mix(((long) edges.u[id] << 32) | edges.v[id]);
        return h;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** SSSP distances as gapbs holds them (int32), -1 for unreachable. */
    static int[] distancesAsInt32(SsspResult r) {
        double[] d = r.distances();
        int[] out = new int[d.length];
        for (int v = 0; v < d.length; v++) {
            if (d[v] == Double.POSITIVE_INFINITY) {
                out[v] = -1;
            } else if (d[v] == Math.rint(d[v]) && d[v] >= 0 && d[v] < Integer.MAX_VALUE / 2) {
                out[v] = (int) d[v];
            } else {
                throw new IllegalStateException("distance " + d[v] + " of vertex " + v + " from " + r.source()
                        + " is not an int32 distance gapbs could hold (below 2^30)");
            }
        }
        return out;
    }

    /** Two warm-up runs, then one run per element of {@code keys}: kernel time in ms, in run order. */
    static double[] timed(int[] keys, IntFunction<Timing> run) {
        run.apply(keys[0]);
        run.apply(keys[keys.length - 1]);
        double[] kernel = new double[keys.length];
        for (int i = 0; i < keys.length; i++) kernel[i] = run.apply(keys[i]).computeNanos() / 1e6;
        return kernel;
    }

    static int delta(String name, CsrGraph g) {
        if (name.equals("ny")) return ROAD_DELTA;
        if (name.startsWith("kron") || name.startsWith("uniform")) return SYNTHETIC_DELTA;
        double mean = g.arcCount() == 0 ? 1 : g.weightSum() / g.arcCount();
        if (mean == 1) return 1;   // unit weights: gapbs's own default delta
        // another weighted graph: GAP's road delta scaled by its mean arc weight against USA-road-d.NY's (1,293.3)
        return (int) Math.max(1, Math.round(ROAD_DELTA * mean / NY_MEAN_WEIGHT));
    }

    /** The mean arc weight of USA-road-d.NY, for which GAP's road delta (50,000) is given. */
    static final double NY_MEAN_WEIGHT = 1293.3;


    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String join(int[] xs) {
        return Arrays.stream(xs).mapToObj(Integer::toString).collect(Collectors.joining(" "));
    }

    private static String nums(double[] xs) {
        return Arrays.stream(xs).mapToObj(PeerBench::num).collect(Collectors.joining(" "));
    }

    private static String num(double x) {
        return String.format(Locale.ROOT, "%.4f", x);
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private PeerBench() {}
}
