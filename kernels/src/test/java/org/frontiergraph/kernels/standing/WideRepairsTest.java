package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Random;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.cc.CcRepair;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.MstRepair;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.sssp.Sssp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On a graph held in the wide form the host's repairs (tree, CC, MST) read no int-indexed array: they give up (null),
 * quietly, so the caller recomputes on the engine that holds the graph; the batch's screen reads either form alike;
 * the GPU defaults (MST, SSSP), chosen on the host from the graph's shape, are the same for either form.
 */
class WideRepairsTest {
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void repairsGiveUpOnAWideGraphAndTheScreenReadsIt(boolean directed) {
        Random rnd = new Random(directed ? 61 : 62);
        CsrGraph start = RepairStreams.graph(rnd, 120, directed, RepairStreams.Weights.REAL);
        MutableGraph narrow = new MutableGraph(start), wide = new MutableGraph(start.widen(7));
        ChangeLog.Cursor seen = wide.log().cursor(ChangeLog.Detail.EDGES);
        MstRepair forest = directed ? null : new MstRepair(wide.current(), KruskalReference.run(start));
        int[] none = {};
        EdgeEdits e = new EdgeEdits(0, none, none, new int[] {start.sourceOf(3)}, new int[] {start.columns()[3]},
                new double[] {0.5}, new int[] {0, 1}, new int[] {7, 9}, new double[] {0.25, 4});
        narrow.apply(e, 0, Long.MAX_VALUE);
        wide.apply(e, 0, Long.MAX_VALUE);
        ChangedEdges changes = seen.read().edges();
        CsrGraph now = wide.current();
        assertNull(TreeRepair.repair(now, DijkstraReference.run(start, 0), changes, Long.MAX_VALUE), "SSSP");
        assertNull(TreeRepair.repair(now, BfsReference.run(start, 0), changes, Long.MAX_VALUE), "BFS");
        assertNull(CcRepair.repair(now, CcReference.run(start), changes, Long.MAX_VALUE), "CC");
        if (forest != null) assertNull(forest.repair(now, changes), "MST");
        Screen a = Screen.of(narrow.current(), changes), b = Screen.of(now, changes);
        assertArrayEquals(a.tails(), b.tails());
        assertArrayEquals(a.heads(), b.heads());
        assertArrayEquals(a.weights(), b.weights());
        Standings host = Standings.of(RepairPolicy.DEFAULTS, false);
        try (ResidentGraph cpu = new CpuBackend().load(start)) {   // stands for the engine holding the wide graph
            Standing<?> s = host.open(TreeKind.SSSP, DijkstraReference.run(start, 0), cpu);
            Standings.Repairs r = host.repair(List.of(s), new Standings.Batch(now, changes, cpu, () -> cpu));
            Standings.Outcome<?> o = r.outcomes().get(0);
            assertNull(o.repaired(), "given up");
            assertNull(o.failure(), "quietly: no exception");
            assertEquals(true, o.intact());
        }
    }

    @Test
    void theGpuDefaultsAreChosenAlikeOnAWideGraph() {
        for (CsrGraph g : List.of(RepairStreams.graph(new Random(3), 300, false, RepairStreams.Weights.REAL),
                GraphBuilder.build(KroneckerGraph.generate(10, 16, 5)))) {
            CsrGraph wide = g.widen(64);
            assertEquals(Mst.SPEC.choose("gpu", null, g).implementation(), Mst.SPEC.choose("gpu", null, wide).implementation());
            // SSSP: the narrow default where it runs wide, else a variant that does (async reads int32 offsets)
            var narrow = (org.frontiergraph.kernels.gpu.GpuAlgorithm<?, ?>) Sssp.SPEC.choose("gpu", null, g).implementation();
            var chosen = (org.frontiergraph.kernels.gpu.GpuAlgorithm<?, ?>) Sssp.SPEC.choose("gpu", null, wide).implementation();
            assertTrue(chosen.wide(), "a wide-capable SSSP on a wide graph");
            if (narrow.wide()) assertEquals(narrow, chosen);
        }
    }
}
