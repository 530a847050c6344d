package org.frontiergraph.kernels.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Test;

/** The verifiers accept the references' answers and reject each kind of wrong answer, naming what is wrong. */
class VerifierTest {
    // 0-1 (1), 1-2 (1), 0-2 (3), 2-3 (1), 0-3 (5); vertex 4 isolated
    private static final CsrGraph G = TestGraphs.build(5, false, 0, 1, 1, 1, 2, 1, 0, 2, 3, 2, 3, 1, 0, 3, 5);

    @Test
    void verificationOrThrow() {
        assertSame(Verification.passed(), Verification.passed().orThrow());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Verification.fail("vertex 3 is wrong").orThrow());
        assertTrue(e.getMessage().contains("vertex 3 is wrong"), e.getMessage());
    }

    @Test
    void bfsAcceptsAnyValidParent() {
        BfsResult ref = BfsReference.run(G, 1);
        assertOk(BfsVerifier.verify(G, 1, ref));
        // from 1, vertex 3 is two hops away through 0 (0-3) or through 2 (2-3): both parents are valid
        assertOk(BfsVerifier.verify(G, 1, withParent(ref, 3, 0)));
        assertOk(BfsVerifier.verify(G, 1, withParent(ref, 3, 2)));
    }

    @Test
    void bfsRejectsWrongAnswers() {
        BfsResult ref = BfsReference.run(G, 1);
        // hops: 1:0, 0:1, 2:1, 3:2, 4:-1
        assertFails(BfsVerifier.verify(G, 1, with(ref, 3, 3, ref.parents()[3])), "vertex 3");
        assertFails(BfsVerifier.verify(G, 1, withParent(ref, 1, 0)), "source 1");
        assertFails(BfsVerifier.verify(G, 1, withParent(ref, 3, 1)), "no arc 1->3");
        assertFails(BfsVerifier.verify(G, 1, withParent(ref, 2, 0)), "vertex 2");  // arc exists, hops[0] = hops[2]
        assertFails(BfsVerifier.verify(G, 1, withParent(ref, 0, -1)), "vertex 0");
        assertFails(BfsVerifier.verify(G, 1, withParent(ref, 4, 2)), "vertex 4 is unreached");
        assertFails(BfsVerifier.verify(G, 1, new BfsResult(1, new int[4], new int[4], Timing.NONE)), "length");
        assertFails(BfsVerifier.verify(G, 0, ref), "source");
    }

    @Test
    void ssspRejectsWrongAnswers() {
        SsspResult ref = DijkstraReference.run(G, 0);
        // dist: 0, 1, 2, 3, inf
        assertOk(SsspVerifier.verify(G, 0, ref));
        double[] d = ref.distances().clone();
        d[3] = 3.0000000000000004;
        assertFails(SsspVerifier.verify(G, 0, new SsspResult(0, d, ref.parents(), Timing.NONE)), "vertex 3");
        d = ref.distances().clone();
        d[4] = Double.NaN;
        assertFails(SsspVerifier.verify(G, 0, new SsspResult(0, d, ref.parents(), Timing.NONE)), "vertex 4");
        int[] p = ref.parents().clone();
        p[3] = 0; // arc 0-3 exists but weighs 5: not on a shortest path
        assertFails(SsspVerifier.verify(G, 0, new SsspResult(0, ref.distances(), p, Timing.NONE)), "vertex 3");
        p = ref.parents().clone();
        p[3] = 1; // no arc 1-3
        assertFails(SsspVerifier.verify(G, 0, new SsspResult(0, ref.distances(), p, Timing.NONE)), "no arc");
        p = ref.parents().clone();
        p[4] = 0;
        assertFails(SsspVerifier.verify(G, 0, new SsspResult(0, ref.distances(), p, Timing.NONE)), "unreachable");
        p = ref.parents().clone();
        p[0] = -1;
        assertFails(SsspVerifier.verify(G, 0, new SsspResult(0, ref.distances(), p, Timing.NONE)), "source 0");
    }

    @Test
    void mstRejectsWrongAnswers() {
        // canonical ids: 0:{0,1}w1 1:{0,2}w3 2:{0,3}w5 3:{1,2}w1 4:{2,3}w1; MSF = {0,3,4}, weight 3, 2 components
        MstResult ref = KruskalReference.run(G);
        assertEquals(3.0, ref.totalWeight());
        assertOk(MstVerifier.verify(G, ref));
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 4, 3}, 3, 2)), "ascending");
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 3, 9}, 3, 2)), "not an edge id");
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 1, 3}, 5, 2)), "cycle");
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 3}, 2, 2)), "do not span");
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 3, 4}, 3, 1)), "components");
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 3, 4}, 3.5, 2)), "totalWeight");
        assertFails(MstVerifier.verify(G, mst(new int[] {0, 1, 4}, 5, 2)), "reference 3.0");
        // an equal-weight alternative is still wrong: the (weight, id) tie-break makes the forest unique
        CsrGraph square = TestGraphs.build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 0, 3, 1);
        // ids: 0:{0,1} 1:{0,3} 2:{1,2} 3:{2,3}; reference {0,1,2}
        assertOk(MstVerifier.verify(square, mst(new int[] {0, 1, 2}, 3, 1)));
        assertFails(MstVerifier.verify(square, mst(new int[] {0, 2, 3}, 3, 1)), "tie");
    }

    private static MstResult mst(int[] ids, double weight, int components) {
        return new MstResult(ids, weight, components, Timing.NONE);
    }

    private static BfsResult with(BfsResult r, int v, int hops, int parent) {
        int[] h = r.hops().clone(), p = r.parents().clone();
        h[v] = hops;
        p[v] = parent;
        return new BfsResult(r.source(), h, p, Timing.NONE);
    }

    private static BfsResult withParent(BfsResult r, int v, int parent) {
        return with(r, v, r.hops()[v], parent);
    }

    private static void assertOk(Verification v) {
        assertTrue(v.ok(), v.message());
    }

    private static void assertFails(Verification v, String mentions) {
        assertFalse(v.ok(), "expected a failure mentioning '" + mentions + "'");
        assertTrue(v.message().contains(mentions), () -> "'" + v.message() + "' does not mention '" + mentions + "'");
    }
}
