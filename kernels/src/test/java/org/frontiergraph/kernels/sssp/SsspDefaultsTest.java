package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.frontiergraph.kernels.contract.TestGraphs;
import org.junit.jupiter.api.Test;

/** Where the GPU's SSSP default is {@code async} rather than {@code nearfar} (SeedSssp.asyncByDefault). */
class SsspDefaultsTest {
    @Test
    void asyncOnSparseGraphsAndOnLargeDenseGraphsWithHubs() {
        assertTrue(SeedSssp.asyncByDefault(2.8, 8, 730_100), "road network");
        assertTrue(SeedSssp.asyncByDefault(30.6, 300_000, 128_304_578L), "kron22: hubs, 128 M arcs");
        assertFalse(SeedSssp.asyncByDefault(30.0, 150_000, 31_402_252), "kron20: hubs, 31 M arcs");
        assertFalse(SeedSssp.asyncByDefault(32.0, 70, 134_217_186L), "uniform22: no hub");
        assertFalse(SeedSssp.asyncByDefault(8.0, 1023, 1L << 30), "dense, largest degree below a hub's");
        assertTrue(SeedSssp.asyncByDefault(TestGraphs.path(100)), "a path is sparse");
        assertFalse(SeedSssp.asyncByDefault(TestGraphs.kronecker().graph()), "the test Kronecker graph is small");
    }
}
