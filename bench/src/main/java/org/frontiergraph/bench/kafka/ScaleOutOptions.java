package org.frontiergraph.bench.kafka;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.schema.Algorithm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@link ScaleOutBench}'s command line. */
record ScaleOutOptions(String graph, int copies, String backend, int workers, int gpus, int window, int producers,
                       int readers, double warmupS, double measureS, double probeS, int sources, List<Algorithm> algorithms,
                       int partitions, String workerHeap, List<String> workerOpts, String brokerHeap, long seed, Path out,
                       String command) {

    static ScaleOutOptions parse(String[] args) {
        return BenchCli.parse(new Cli(), args);
    }

    @Command(name = "ScaleOutBench", description = {
        "The broker in its own JVM, one worker JVM per GPU (CUDA_VISIBLE_DEVICES=i; --gpus 0: no device named), --copies",
        "copies of --graph published as distinct graph ids; the same closed-loop load (--window SUMMARY queries in flight,",
        "from --producers producer threads, answers read by --readers consumers) on 1 worker, then on --workers workers in",
        "the same run. Every answer is checked against the CPU engine."})
    static final class Cli implements BenchCli.Command<ScaleOutOptions> {
        @Option(names = "--graph", paramLabel = "NAME", description = "the graph, as GpuBench names it")
        String graph = "ny";
        @Option(names = "--copies", paramLabel = "N", description = "copies of the graph, each its own graph id")
        int copies = 12;
        @Mixin
        BenchCli.Backend backend;
        @Option(names = "--workers", paramLabel = "N", description = "workers of the second phase")
        int workers = 2;
        @Option(names = "--gpus", paramLabel = "N", description = "GPUs the workers are spread over (0: no device named)")
        int gpus = 2;
        @Option(names = "--window", paramLabel = "N", description = "SUMMARY queries in flight")
        int window = 6000;
        @Option(names = "--producers", paramLabel = "N", description = "producer threads of the load")
        int producers = 4;
        @Option(names = "--readers", paramLabel = "N", description = "consumers reading the answers")
        int readers = 4;
        @Option(names = "--warmup-s", paramLabel = "S", description = "untimed load first")
        double warmupS = 5;
        @Option(names = "--measure-s", paramLabel = "S", description = "timed load")
        double measureS = 20;
        @Option(names = "--probe-s", paramLabel = "S", description = "the load generator alone first (its queries read back "
                + "from a topic of their own; 0: skip)")
        double probeS = 10;
        @Option(names = "--sources", paramLabel = "N", description = "seeded sources the queries draw from")
        int sources = 32;
        @Option(names = "--algorithms", paramLabel = "A", split = ",", description = "bfs, sssp")
        List<Algorithm> algorithms = List.of(Algorithm.BFS, Algorithm.SSSP);
        @Option(names = "--partitions", paramLabel = "N", description = "the graphs topic's partitions (0: the worker's "
                + "default, frontier.topics.partitions)")
        int partitions;
        @Option(names = "--worker-heap", paramLabel = "SIZE", description = "each worker JVM's -Xmx")
        String workerHeap = "16g";
        @Option(names = "--worker-opt", paramLabel = "OPT", description = "a JVM option of each worker, repeatable, e.g. "
                + "--worker-opt=-Dfrontier.run-records=1024 (a setting the worker reads as configuration)")
        List<String> workerOpts = List.of();
        @Option(names = "--broker-heap", paramLabel = "SIZE", description = "the broker JVM's -Xmx")
        String brokerHeap = "4g";
        @Option(names = "--seed", paramLabel = "N", description = "sources")
        long seed = 42;
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--backend", "gpu");
        }

        @Override
        public ScaleOutOptions options(String[] args) {
            positive("--copies", copies);
            positive("--workers", workers);
            positive("--window", window);
            positive("--producers", producers);
            positive("--readers", readers);
            positive("--sources", sources);
            for (Algorithm alg : algorithms) {
                if (alg != Algorithm.BFS && alg != Algorithm.SSSP) throw new IllegalArgumentException("--algorithms: bfs and sssp only");
            }
            if (window < producers) throw new IllegalArgumentException("--window must be at least --producers");
            if (measureS <= 0) throw new IllegalArgumentException("--measure-s must be positive");
            return new ScaleOutOptions(graph, copies, backend.backend(), workers, gpus, window, producers, readers, warmupS,
                    measureS, probeS, sources, List.copyOf(algorithms), partitions, workerHeap, List.copyOf(workerOpts), brokerHeap, seed, output.out(),
                    output.command("ScaleOutBench", args));
        }

        private static void positive(String option, int n) {
            if (n <= 0) throw new IllegalArgumentException(option + " must be positive");
        }
    }
}
