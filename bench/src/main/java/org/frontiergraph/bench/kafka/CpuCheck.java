package org.frontiergraph.bench.kafka;

import java.nio.IntBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.worker.query.Answers;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Checks answers that came through Kafka against the CPU engine, run here on the same graph version: FULL answers
 * with the kernels' verifiers (BFS hops and SSSP distances exactly, parents by rules, the MST's edge set and weight
 * exactly), TARGETS answers value by value, SUMMARY answers by their counts and extremes. The CPU engine's answers
 * are cached per version and source.
 */
final class CpuCheck {
    private final CpuBackend cpu = new CpuBackend();
    private CsrGraph graph;
    private ResidentGraph resident;
    private final Map<Integer, BfsResult> bfs = new HashMap<>();
    private final Map<Integer, SsspResult> sssp = new HashMap<>();
    private MstResult mst;

    /** The graph version the next answers are checked on (0-based ids; the same object keeps the cache). */
    void use(CsrGraph g) {
        if (g == graph) return;
        graph = g;
        resident = cpu.load(g);
        bfs.clear();
        sssp.clear();
        mst = null;
    }

    /** Checks {@code chunks}, the whole answer to {@code q}, on the current graph; {@code first}: the user's id of vertex 0. */
    Verification check(GraphQuery q, List<QueryResult> chunks, int first) {
        QueryResult head = chunks.get(0);
        ResultMode mode = q.getResultMode();
        switch (q.getAlgorithm()) {
            case BFS -> {
                int s = q.getSource() - first;
                BfsResult ref = bfs.computeIfAbsent(s, x -> Bfs.run(resident, x, null));
                if (mode == ResultMode.FULL) return BfsVerifier.verify(graph, s, Answers.decode(BfsResult.class, chunks), ref);
                if (mode == ResultMode.TARGETS) {
                    return targets(q, chunks, first, (c, i, v) -> equal("hops of vertex " + (v + first),
                            PackedArrays.ints(c.getHops()).get(i), ref.hops()[v]));
                }
                long reached = 0;
                int max = 0;
                for (int h : ref.hops()) if (h >= 0) { reached++; max = Math.max(max, h); }
                return both(equal("reached count", head.getReachedCount(), reached), equal("max hops", head.getMaxHops(), max));
            }
            case SSSP -> {
                int s = q.getSource() - first;
                SsspResult ref = sssp.computeIfAbsent(s, x -> Sssp.run(resident, x, null));
                if (mode == ResultMode.FULL) return SsspVerifier.verify(graph, s, Answers.decode(SsspResult.class, chunks), ref);
                if (mode == ResultMode.TARGETS) {
                    return targets(q, chunks, first, (c, i, v) -> equal("distance of vertex " + (v + first),
                            PackedArrays.doubles(c.getDistances()).get(i), ref.distances()[v]));
                }
                long reached = 0;
                double max = 0;
                for (double d : ref.distances()) if (d != Double.POSITIVE_INFINITY) { reached++; max = Math.max(max, d); }
                return both(equal("reached count", head.getReachedCount(), reached), equal("max distance", head.getMaxDistance(), max));
            }
            case MST -> {
                if (mst == null) mst = Mst.run(resident, null);
                if (mode == ResultMode.SUMMARY) {
                    return both(equal("total weight", head.getTotalWeight(), mst.totalWeight()),
                            equal("components", head.getComponents(), mst.components()));
                }
                return MstVerifier.verify(graph, Answers.decode(MstResult.class, graph, chunks), mst);
            }
            default -> {
                return Verification.fail("KafkaBench does not check " + q.getAlgorithm());
            }
        }
    }

    /** One listed target: position {@code i} of chunk {@code c} answers vertex {@code v} (0-based). */
    private interface TargetCheck {
        Verification check(QueryResult c, int i, int v);
    }

    /** Every target the query listed, in its order, answered and equal to the reference. */
    private static Verification targets(GraphQuery q, List<QueryResult> chunks, int first, TargetCheck check) {
        int answered = 0;
        for (QueryResult c : chunks) {
            IntBuffer vertices = PackedArrays.ints(c.getVertices());
            for (int i = 0; i < vertices.limit(); i++) {
                int user = vertices.get(i), asked = q.getTargets().get(c.getOffset() + i);
                if (user != asked) return Verification.fail("position " + (c.getOffset() + i) + " answers vertex " + user + ", not " + asked);
                Verification v = check.check(c, i, user - first);
                if (!v.ok()) return v;
                answered++;
            }
        }
        return answered == q.getTargets().size() ? Verification.passed()
                : Verification.fail(answered + " of " + q.getTargets().size() + " targets answered");
    }

    private static Verification both(Verification a, Verification b) {
        return a.ok() ? b : a;
    }

    private static Verification equal(String what, Number got, long expected) {
        return got != null && got.longValue() == expected ? Verification.passed()
                : Verification.fail(what + ": " + got + ", CPU engine " + expected);
    }

    /** Exact: distances and MST weights are sums every backend computes alike. */
    private static Verification equal(String what, Double got, double expected) {
        return got != null && got == expected ? Verification.passed() : Verification.fail(what + ": " + got + ", CPU engine " + expected);
    }
}
