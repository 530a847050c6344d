package org.frontiergraph.bench.kafka;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.frontiergraph.schema.Algorithm;

/** {@link ScaleOutBench}'s command line. */
record ScaleOutOptions(String graph, int copies, String backend, int workers, int gpus, int window, int producers,
                       int readers, double warmupS, double measureS, double probeS, int sources, List<Algorithm> algorithms,
                       int partitions, String workerHeap, String brokerHeap, long seed, Path out, String command) {

    static final String USAGE = """
            usage: ScaleOutBench [--graph ny] [--copies 12] [--backend gpu|cpu|auto] [--workers 2] [--gpus 2]
                                 [--window 6000] [--producers 4] [--readers 4] [--warmup-s 5] [--measure-s 20]
                                 [--probe-s 10] [--sources 32] [--algorithms bfs,sssp] [--partitions 0]
                                 [--worker-heap 16g] [--broker-heap 4g] [--seed 42] [--out FILE] [--command TEXT]
              The broker in its own JVM, one worker JVM per GPU (CUDA_VISIBLE_DEVICES=i; --gpus 0: no device
              named), --copies copies of --graph published as distinct graph ids; the same closed-loop load (--window
              SUMMARY queries in flight, from --producers producer threads, answers read by --readers consumers) on 1
              worker, then on --workers workers in the same run. Every answer is checked against the CPU engine.
              --probe-s: the load generator alone first (its queries read back from a topic of their own; 0: skip).
              --partitions: the graphs topic's partitions (0: the worker's default, frontier.topics.partitions).""";

    static ScaleOutOptions parse(String[] args) {
        String graph = "ny", backend = "gpu", workerHeap = "16g", brokerHeap = "4g", command = null;
        int copies = 12, workers = 2, gpus = 2, window = 6000, producers = 4, readers = 4, sources = 32, partitions = 0;
        double warmupS = 5, measureS = 20, probeS = 10;
        long seed = 42;
        List<Algorithm> algorithms = List.of(Algorithm.BFS, Algorithm.SSSP);
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) throw new IllegalArgumentException("");
            if (i + 1 >= args.length) throw new IllegalArgumentException("unknown option or missing value: " + a);
            String v = args[++i];
            switch (a) {
                case "--graph" -> graph = v;
                case "--copies" -> copies = positive(a, v);
                case "--backend" -> backend = v;
                case "--workers" -> workers = positive(a, v);
                case "--gpus" -> gpus = Integer.parseInt(v);
                case "--window" -> window = positive(a, v);
                case "--producers" -> producers = positive(a, v);
                case "--readers" -> readers = positive(a, v);
                case "--warmup-s" -> warmupS = Double.parseDouble(v);
                case "--measure-s" -> measureS = Double.parseDouble(v);
                case "--probe-s" -> probeS = Double.parseDouble(v);
                case "--sources" -> sources = positive(a, v);
                case "--algorithms" -> algorithms = java.util.Arrays.stream(v.split(","))
                        .map(s -> Algorithm.valueOf(s.trim().toUpperCase(Locale.ROOT))).toList();
                case "--partitions" -> partitions = Integer.parseInt(v);
                case "--worker-heap" -> workerHeap = v;
                case "--broker-heap" -> brokerHeap = v;
                case "--seed" -> seed = Long.parseLong(v);
                case "--out" -> out = Path.of(v);
                case "--command" -> command = v;
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (!List.of("gpu", "cpu", "auto").contains(backend)) throw new IllegalArgumentException("--backend is gpu, cpu or auto");
        for (Algorithm alg : algorithms) {
            if (alg != Algorithm.BFS && alg != Algorithm.SSSP) throw new IllegalArgumentException("--algorithms: bfs and sssp only");
        }
        if (window < producers) throw new IllegalArgumentException("--window must be at least --producers");
        if (measureS <= 0) throw new IllegalArgumentException("--measure-s must be positive");
        if (command == null) command = "ScaleOutBench " + String.join(" ", args);
        return new ScaleOutOptions(graph, copies, backend, workers, gpus, window, producers, readers, warmupS, measureS, probeS,
                sources, algorithms, partitions, workerHeap, brokerHeap, seed, out, command);
    }

    private static int positive(String option, String value) {
        int n = Integer.parseInt(value);
        if (n <= 0) throw new IllegalArgumentException(option + " must be positive");
        return n;
    }
}
