package org.frontiergraph.bench.kafka;

import java.util.SplittableRandom;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;

/**
 * The SUMMARY answers ScaleOutBench expects, computed once per source on the CPU engine before any load (every copy
 * of the graph is the same graph, so one reference serves them all): BFS reached count and max hops, SSSP reached
 * count and max distance. Sources are seeded, among vertices with at least one edge, in the user's ids.
 */
final class ScaleOutReference {
    private final int firstVertexId;
    private final int[] sources;
    private final long[] bfsReached, ssspReached;
    private final int[] maxHops;
    private final double[] maxDistance;

    ScaleOutReference(EdgeList edges, int firstVertexId, int count, long seed) {
        this.firstVertexId = firstVertexId;
        CsrGraph g = GraphBuilder.build(edges);
        SplittableRandom random = new SplittableRandom(seed);
        sources = new int[count];
        for (int i = 0; i < count; i++) {
            int v;
            do {
                v = random.nextInt(g.vertexCount());
            } while (g.degree(v) == 0);
            sources[i] = v;
        }
        bfsReached = new long[count];
        ssspReached = new long[count];
        maxHops = new int[count];
        maxDistance = new double[count];
        try (ResidentGraph cpu = new CpuBackend().load(g)) {
            for (int i = 0; i < count; i++) {
                for (int h : Bfs.run(cpu, sources[i], null).hops()) {
                    if (h >= 0) {
                        bfsReached[i]++;
                        maxHops[i] = Math.max(maxHops[i], h);
                    }
                }
                for (double d : Sssp.run(cpu, sources[i], null).distances()) {
                    if (d != Double.POSITIVE_INFINITY) {
                        ssspReached[i]++;
                        maxDistance[i] = Math.max(maxDistance[i], d);
                    }
                }
            }
        }
    }

    int sources() { return sources.length; }

    /** Source {@code i} in the user's ids (what a query names). */
    int source(int i) { return sources[i] + firstVertexId; }

    /** Why {@code r} is not the SUMMARY of {@code a} from {@code source} (user's id); null when it is. */
    String mismatch(Algorithm a, int source, QueryResult r) {
        int i = indexOf(source - firstVertexId);
        if (i < 0) return "source " + source + " has no reference";
        if (a == Algorithm.BFS) {
            String reached = differ("reached count", r.getReachedCount(), bfsReached[i]);
            return reached != null ? reached : differ("max hops", r.getMaxHops(), maxHops[i]);
        }
        String reached = differ("reached count", r.getReachedCount(), ssspReached[i]);
        if (reached != null) return reached;
        Double d = r.getMaxDistance();
        return d != null && d == maxDistance[i] ? null : "max distance " + d + ", expected " + maxDistance[i];
    }

    private int indexOf(int vertex) {
        for (int i = 0; i < sources.length; i++) if (sources[i] == vertex) return i;
        return -1;
    }

    private static String differ(String what, Number got, long expected) {
        return got != null && got.longValue() == expected ? null : what + " " + got + ", expected " + expected;
    }
}
