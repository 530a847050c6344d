package org.frontiergraph.bench.worker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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

    public static void main(String[] args) throws Exception {
        List<String> graphs = List.of("ny", "kron18");
        int updates = 400_000, poll = 2_000, runs = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--graphs" -> graphs = Arrays.asList(args[++i].split(","));
                case "--updates" -> updates = Integer.parseInt(args[++i]);
                case "--poll" -> poll = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--graphs A,B --updates N --poll N --runs N)");
            }
        }
        System.out.println("| graph | updates | records a poll | run | us per update | of it: status encode | updates/s |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (String g : graphs) measure(g, updates, poll, runs);
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
