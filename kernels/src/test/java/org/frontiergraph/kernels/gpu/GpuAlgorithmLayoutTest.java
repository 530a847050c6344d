package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Implementation;
import org.junit.jupiter.api.Test;

/**
 * The two questions an implementation answers separately: which layout of the device copy it reads, and whether its
 * launcher keeps data that follows the host's versions (handed merges and re-weights) instead of being opened again.
 */
class GpuAlgorithmLayoutTest {
    private static GpuAlgorithm<Object, Object> plain() {
        return new GpuAlgorithm<>(List.of("x"), false, g -> 0L, d -> null);
    }

    @Test
    void eachLayoutSaysWhichFormItReads() {
        GpuAlgorithm<Object, Object> compact = plain();
        assertEquals(GpuAlgorithm.Layout.COMPACT, compact.layout());
        assertFalse(compact.followsHost());
        for (boolean directed : new boolean[] {false, true}) {
            assertTrue(compact.reads(false, directed), "every implementation reads the compact form");
            assertFalse(compact.reads(true, directed));
            assertTrue(compact.reads(GpuAlgorithm.Layout.ANY).reads(true, directed));
            assertTrue(compact.reads(GpuAlgorithm.Layout.OWN).reads(true, directed), "no CSR read: beside either form");
        }
        GpuAlgorithm<Object, Object> undirected = compact.reads(GpuAlgorithm.Layout.SLACK_IF_UNDIRECTED);
        assertTrue(undirected.reads(true, false));
        assertFalse(undirected.reads(true, true));
    }

    @Test
    void followingTheHostIsDeclaredApartFromTheLayout() {
        GpuAlgorithm<Object, Object> own = plain().reads(GpuAlgorithm.Layout.OWN);
        assertFalse(own.followsHost());
        assertFalse(GpuResidentGraph.handedChanges(own), "its own data, not following: opened again after a change");
        GpuAlgorithm<Object, Object> following = own.followingHost();
        assertTrue(following.followsHost());
        assertEquals(GpuAlgorithm.Layout.OWN, following.layout());
        assertTrue(GpuResidentGraph.handedChanges(following));
        assertTrue(GpuResidentGraph.handedChanges(plain()), "a CSR reader is told of re-weights and merges");
        assertEquals(following.layout(), following.defaultFor(g -> false).layout(), "kept by the other builders");
        assertTrue(following.defaultFor(g -> false).followsHost());
    }

    @Test
    void everyRegisteredImplementationThatReadsNoCsrFollowsTheHost() {
        int own = 0;
        for (AlgorithmSpec<?, ?> spec : Algorithms.ALL) {
            for (Implementation<?, ?> impl : spec.implementations()) {
                if (!(impl instanceof GpuAlgorithm<?, ?> g) || g.layout() != GpuAlgorithm.Layout.OWN) continue;
                own++;
                assertTrue(g.followsHost(), g.variants() + " builds its data from the host's version: it must follow it");
            }
        }
        assertTrue(own >= 4, "MST's edge lists, Prim, APSP: " + own);
    }
}
