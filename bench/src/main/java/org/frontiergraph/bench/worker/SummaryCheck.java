package org.frontiergraph.bench.worker;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;

/**
 * Checks ScaleBench's SUMMARY answers: each OK, on the version loaded; reached counts, MST weight and trees against
 * {@link ComponentsCheck}; where the graph has at most {@code referenceMaxEdges} edges, every value (max hops and max
 * distance too) against the CPU engine on the same edges. Run after the graph was dropped from the worker, so the
 * reference's memory does not add to the load's.
 */
final class SummaryCheck {
    private SummaryCheck() {}

    /**
     * What was checked when every answer passed ("N answers: Kruskal and CPU engine", or "Kruskal (max hops, max
     * distance unchecked)" above {@code referenceMaxEdges}); null when one failed (each failure added to {@code failures}).
     */
    static String verify(String name, EdgeList edges, long version, List<ScaleBench.Answer> answers, long referenceMaxEdges,
                         List<String> failures) {
        int before = failures.size();
        for (ScaleBench.Answer a : answers) {
            QueryResult h = a.head();
            if (h.getStatus() != ResultStatus.OK || h.getGraphVersion() != version) {
                failures.add(name + " " + a.algorithm() + ": " + h.getStatus() + " on version " + h.getGraphVersion() + " (expected OK on "
                        + version + "): " + h.getError());
            }
        }
        ComponentsCheck cc = ComponentsCheck.of(edges);
        for (ScaleBench.Answer a : answers) {
            QueryResult h = a.head();
            switch (a.algorithm()) {
                case BFS, SSSP -> same(failures, name, a, "reached count", h.getReachedCount(), cc.reached(a.source()));
                case MST -> {
                    same(failures, name, a, "total weight", h.getTotalWeight(), cc.totalWeight());
                    same(failures, name, a, "trees", h.getComponents(), cc.components());
                }
                default -> failures.add(name + ": ScaleBench does not check " + a.algorithm());
            }
        }
        String what = answers.size() + " answers: Kruskal";
        if (edges.size() <= referenceMaxEdges) {
            what += " and CPU engine";
            try (ResidentGraph cpu = new CpuBackend().load(GraphBuilder.build(edges))) {
                Map<Integer, BfsResult> bfs = new HashMap<>();
                Map<Integer, SsspResult> sssp = new HashMap<>();
                MstResult mst = null;
                for (ScaleBench.Answer a : answers) {
                    QueryResult h = a.head();
                    switch (a.algorithm()) {
                        case BFS -> {
                            int[] hops = bfs.computeIfAbsent(a.source(), s -> Bfs.run(cpu, s, null)).hops();
                            long reached = 0;
                            int max = 0;
                            for (int x : hops) if (x >= 0) { reached++; max = Math.max(max, x); }
                            same(failures, name, a, "reached count (CPU engine)", h.getReachedCount(), reached);
                            same(failures, name, a, "max hops (CPU engine)", h.getMaxHops(), max);
                        }
                        case SSSP -> {
                            double[] d = sssp.computeIfAbsent(a.source(), s -> Sssp.run(cpu, s, null)).distances();
                            long reached = 0;
                            double max = 0;
                            for (double x : d) if (x != Double.POSITIVE_INFINITY) { reached++; max = Math.max(max, x); }
                            same(failures, name, a, "reached count (CPU engine)", h.getReachedCount(), reached);
                            same(failures, name, a, "max distance (CPU engine)", h.getMaxDistance(), max);
                        }
                        case MST -> {
                            if (mst == null) mst = Mst.run(cpu, null);
                            same(failures, name, a, "total weight (CPU engine)", h.getTotalWeight(), mst.totalWeight());
                            same(failures, name, a, "trees (CPU engine)", h.getComponents(), mst.components());
                        }
                        default -> { }
                    }
                }
            }
        } else {
            what += " (max hops, max distance unchecked)";
        }
        return failures.size() == before ? what : null;
    }

    private static void same(List<String> failures, String name, ScaleBench.Answer a, String what, Number got, Number expected) {
        boolean equal = got != null && (expected instanceof Double ? got.doubleValue() == expected.doubleValue()
                : got.longValue() == expected.longValue());
        if (!equal) {
            failures.add(name + " " + a.algorithm() + (a.source() >= 0 ? " from " + a.source() : "") + ": " + what + " " + got
                    + ", expected " + expected);
        }
    }
}
