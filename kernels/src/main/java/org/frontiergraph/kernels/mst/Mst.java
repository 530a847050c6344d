package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.ArcPages;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Minimum spanning forest of the undirected graph underneath, unique by its (weight, edge id) tie-break: the spec
 * and its implementations.
 * <ul>
 *   <li>CPU: {@code default}, Filter-Kruskal ({@link CpuMst}); {@code prim}, binary-heap Prim, paper 000's CPU
 *       baseline ({@link CpuPrim});</li>
 *   <li>GPU: {@code ecl} ({@link EclMst}, src/main/cuda/mst_ecl.cu: ECL-MST's weight-filtered Borůvka), the
 *       default where its light filter splits the edges ({@link #eclByDefault}: at least two undirected edges per
 *       vertex, and weights that leave most edges out of the light set); {@code boruvka} ({@link GpuMst},
 *       src/main/cuda/mst.cu), the default elsewhere: on sparser (road-like) graphs, where ECL's filter does not
 *       apply, and on graphs whose weights are all equal or nearly (SNAP web and social graphs read without
 *       weights), where the light set is cut by the edge-id tie-break alone, the heavy phase keeps about as many
 *       entries as the light one took, and the extra launches cost more than they save; one cooperative launch
 *       wins there (H200, ecl vs boruvka: kron20 1.12 vs 6.07 ms, kron22 3.6 vs 24.1 ms, uniform22 5.3 vs
 *       52.7 ms; NY 0.32 vs 0.20 ms, email-Enron 0.19 vs 0.10 ms, facebook 0.14 vs 0.06 ms, three unit-weight
 *       web and social graphs 0.166 / 0.457 / 0.496 vs 0.08 / 0.32 / 0.37 ms; docs/benchmarks.md, "The MST
 *       default by the graph's shape"); both upload their edge list on the first MST query of a version;
 *       {@code prim-gmr} and {@code prim-naive}, paper 000 ({@link GpuPrim}, mst_prim.cu).</li>
 * </ul>
 * Every implementation's answer passes {@link MstVerifier}; {@link KruskalReference} is the plain reference.
 */
public final class Mst {
    private Mst() {}

    public static final AlgorithmSpec<WholeGraph, MstResult> SPEC = new AlgorithmSpec<>("MST",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuMst.run(g)),
            new CpuAlgorithm<>(List.of(CpuPrim.VARIANT), (g, q, v) -> CpuPrim.run(g)),
            EclMst.IMPLEMENTATION.defaultFor(Mst::eclByDefault),
            GpuMst.IMPLEMENTATION,
            GpuPrim.IMPLEMENTATION);

    /**
     * SUMMARY answers (total weight, edge count, components) without the edge ids: CPU {@code default} (the whole
     * forest, summarized); GPU {@code default} ({@link GpuMstSummary}: the default launcher's forest, counted and
     * summed on the device where the weights are integers). The worker answers MST SUMMARY queries with it.
     */
    public static final AlgorithmSpec<WholeGraph, MstSummary> SUMMARY = new AlgorithmSpec<>("MST",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> MstSummary.of(CpuMst.run(g))),
            GpuMstSummary.IMPLEMENTATION);

    /** Weights sampled by {@link #lightFilterSplits}. */
    static final int SHAPE_SAMPLES = 256;
    /** The largest share of the sampled edges in the light set for which the filter counts as splitting them. */
    static final double MAX_LIGHT_SHARE = 0.5;

    /** Whether {@code ecl} is the GPU default on {@code g}: {@link #dense} and {@link #lightFilterSplits}. */
    static boolean eclByDefault(CsrGraph g) {
        return dense(g) && lightFilterSplits(g);
    }

    /**
     * Whether ECL's light filter would leave most edges out: of {@value #SHAPE_SAMPLES} arc weights spread evenly
     * over the arcs, at most {@link #MAX_LIGHT_SHARE} are at or below the weight at the light set's target quantile
     * (EclMst's 1.5 n edges of m). Ties count as light, so where every weight is equal (a graph read without
     * weights) every sample is light and the rule says no: there the filter can only cut by edge id. A few µs per
     * call (a sort of the samples); the predicate is asked on every default MST query.
     */
    static boolean lightFilterSplits(CsrGraph g) {
        long arcs = g.arcs();
        if (arcs == 0) return false;
        ArcPages pages = g.pages();   // one page, the weights themselves, unless the graph is stored wide
        int k = (int) Math.min(SHAPE_SAMPLES, arcs);
        double[] s = new double[k];
        for (int i = 0; i < k; i++) {
            long a = i * arcs / k;
            s[i] = pages.weights()[(int) (a / pages.pageArcs())][(int) (a % pages.pageArcs())];
        }
        Arrays.sort(s);
        long m = g.directed() ? g.undirectedEdges().size() : g.edgeCount();
        double share = Math.min(1, EclMst.DEFAULT_LIGHT_PERCENT / 100.0 * g.vertexCount() / Math.max(1, m));
        double threshold = s[(int) Math.min(k - 1, (long) (share * k))];
        int light = 0;
        while (light < k && s[light] <= threshold) light++;
        return light <= MAX_LIGHT_SHARE * k;
    }

    /**
     * At least two undirected edges per vertex: where ECL-MST's filter applies (EclMst's own rule). Counted on the
     * undirected edges an MST runs on: a directed road graph stores most links as two arcs, and counting arcs would
     * call it dense.
     */
    static boolean dense(CsrGraph g) {
        long m = g.directed() ? g.undirectedEdges().size() : g.edgeCount();
        return m >= 2L * g.vertexCount();
    }

    /** The minimum spanning forest of {@code graph} on its backend ({@code variant} null: the backend's default). */
    public static MstResult run(ResidentGraph graph, String variant) {
        return graph.run(SPEC, WholeGraph.QUERY, variant);
    }
}
