package org.frontiergraph.bench.worker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.bench.kafka.Reweights;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.registry.GraphRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The worker's own cost of a single-edge re-weight, without Kafka: encoded GraphUpdate records handed to the
 * processor a poll at a time ({@code GraphEventProcessor.processAll}: decode, check, apply to the resident graph,
 * GraphStatus record per batch), then the status records encoded as the publisher would. CPU engine, one thread, as the worker's
 * consumer thread does it. After each repetition the worker's graph must equal the re-weights replayed here.
 *
 * <pre>UpdatePathBench [--graphs ny,kron18] [--updates 400000] [--poll 2000] [--runs 3]</pre>
 */
public final class UpdatePathBench {
    private UpdatePathBench() {}

    @Command(name = "UpdatePathBench", description = "The worker's own cost of a single-edge re-weight, without Kafka.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--updates", paramLabel = "N", description = "re-weights a run")
        int updates = 400_000;
        @Option(names = "--poll", paramLabel = "N", description = "records a poll")
        int poll = 2_000;
        @Mixin
        BenchCli.Runs runs;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny,kron18", "--runs", "3");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            graphs.graphs();
            runs.runs();
            return this;
        }
    }

    public static void main(String[] args) throws Exception {
        Cli o = BenchCli.options("UpdatePathBench", args, Cli::new);
        System.out.println("| graph | updates | records a poll | run | us per update | of it: status encode | updates/s |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (String g : o.graphs.graphs()) measure(g, o.updates, o.poll, o.runs.runs());
        System.exit(0);
    }

    private static void measure(String name, int updates, int poll, int runs) throws Exception {
        try (WorkerServices worker = new WorkerServices("update-path-bench")) {
            GraphEventProcessor processor = worker.processor();
            GraphRegistry registry = worker.registry();
            GpuBench.Edges edges = GpuBench.edges(name);
            String id = "upb-" + name;
            long offset = 0;
            for (GraphSnapshotChunk c : FrontierClient.chunks(id, 1, Snapshots.of(edges.edges()), edges.firstVertexId(), true,
                    FrontierClient.CHUNK_EDGES)) {
                processor.process(new InputRecord("graphs", 0, offset++, id, FrontierCodec.encode(c), System.currentTimeMillis()), false);
            }
            // the re-weights are replayed on a copy of their own (the worker re-weights its graph in place)
            Reweights reweights = new Reweights(GraphBuilder.build(edges.edges()), 1, edges.firstVertexId(), 7);
            for (int run = 1; run <= runs; run++) {
                byte[][] records = new byte[updates][];
                for (int i = 0; i < updates; i++) records[i] = FrontierCodec.encode(reweights.next(id));
                long start = System.nanoTime(), encode = 0;
                for (int i = 0; i < updates; i += poll) {
                    List<InputRecord> in = new ArrayList<>(poll);
                    for (int j = i; j < Math.min(updates, i + poll); j++) {
                        in.add(new InputRecord("graphs", 0, offset++, id, records[j], System.currentTimeMillis()));
                    }
                    List<Outputs> outs = processor.processAll(in);
                    long e0 = System.nanoTime();
                    int statuses = 0;   // one GraphStatus per batch of a graph's updates (docs/contract.md)
                    for (Outputs o : outs) {
                        for (var status : o.statuses()) {
                            FrontierCodec.encode(status);
                            statuses++;
                        }
                    }
                    if (statuses == 0) throw new IllegalStateException("a poll of updates gave no status");
                    encode += System.nanoTime() - e0;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                CsrGraph held = registry.get(id).orElseThrow().resident().mutable().current();
                if (!Arrays.equals(held.weights(), reweights.graphAt(reweights.version()).weights())) {
                    throw new IllegalStateException(name + ": the worker's weights differ from the re-weights replayed");
                }
                System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %d | %.2f | %.2f | %,.0f |%n", name, updates, poll, run,
                        seconds * 1e6 / updates, encode / 1e3 / updates, updates / seconds);
            }
        }
    }
}
