package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.junit.jupiter.api.Test;

/** The host side of the several-sources SSSP ({@link MultiSssp}): no GPU needed. */
class MultiSsspTest {
    @Test
    void hostMirrorsTheKernelsSlotsAndSizes() {
        Map<String, Integer> c = CudaCounters.slots("sssp_multi.cu", "MultiSsspCounter");
        assertEquals(MultiSssp.STEPS, c.get("MSSSP_STEPS"));
        assertEquals(MultiSssp.FILTERS, c.get("MSSSP_FILTERS"));
        assertEquals(MultiSssp.ITEMS, c.get("MSSSP_ITEMS"));
        assertEquals(MultiSssp.SOURCE_BASE, c.get("MSSSP_SOURCE_BASE"));
        assertEquals(MultiSssp.COUNTERS, c.get("MSSSP_COUNTERS"));
        c.forEach((name, slot) -> assertTrue(slot <= MultiSssp.COUNTERS, name + " = " + slot));
        Map<String, Integer> layout = CudaCounters.slots("sssp_multi.cu", "MultiSsspLayout");
        assertEquals(MultiSssp.MAX_SOURCES, layout.get("MSSSP_MAX_SOURCES"));
        assertEquals(MultiSssp.SOURCE_STRIDE, layout.get("MSSSP_SOURCE_STRIDE"));
        assertEquals(MultiSssp.WIDE_DEGREE, layout.get("MSSSP_WIDE_DEGREE"));
        assertEquals(MultiSssp.WIDE_SHIFT, layout.get("MSSSP_WIDE_SHIFT"));
        // the per-source slots of the last source end where the array does
        assertEquals(MultiSssp.COUNTERS, MultiSssp.SOURCE_BASE + MultiSssp.MAX_SOURCES * MultiSssp.SOURCE_STRIDE);
        // the near mask has a bit per source
        assertTrue(MultiSssp.MAX_SOURCES <= 32);
    }

    @Test
    void sourcesPerPassComeFromTheGraphsSize() {
        assertEquals(32, MultiSssp.capacity(264_346, 0, 730_100));         // USA-road-d.NY: 8.5 MB a source
        assertEquals(7, MultiSssp.capacity(1 << 22, 400_000, 130_000_000)); // Kronecker 22: 134 MB a source
        assertEquals(1, MultiSssp.capacity(24_000_000, 0, 58_000_000));     // USA-road-d.USA: one a pass
        assertEquals(0, MultiSssp.capacity(0, 0, 0));
        assertEquals(32, MultiSssp.capacity(1, 0, 0));
        // items s * n + v are ints
        assertTrue((long) MultiSssp.capacity(30_000_000, 0, 0) * 30_000_000 <= Integer.MAX_VALUE);
        // the wide list's counter: arcs of a step below 2^36 (its items stay below 2^28 by the memory bound)
        assertEquals(4, MultiSssp.capacity(1_000, 1, (1L << 34) - 1));
        long wide = 1 << 24;
        assertTrue(MultiSssp.capacity(1 << 24, wide, 1 << 30) * wide < 1L << (64 - MultiSssp.WIDE_SHIFT));
    }

    @Test
    void deviceBytesCountEveryBuffer() {
        var path = TestGraphs.path(264_346);
        assertEquals(0, MultiSssp.wideVertexCount(path));
        assertEquals(1, MultiSssp.wideVertexCount(TestGraphs.star(100)));
        assertEquals(0, MultiSssp.wideVertexCount(TestGraphs.star(31)));
        long n = 264_346, kn = 32 * n;  // dist, two near queues, two far piles, two marks, counters, wide list, sources
        assertEquals(8 * kn + 4 * kn + 4 * kn + 8 * kn + 4 * kn + 4 * kn + 8 * 272 + 4 * 32 + 8 * 32
                + 4 * SummaryBuffer.INITIAL, MultiSssp.deviceBytes(path));
        assertEquals(MultiSssp.deviceBytes(path), DeviceBuffer.total(MultiSssp.sizes(path, 32)));
        assertEquals(16L * SummaryBuffer.INITIAL + MultiSssp.deviceBytes(path) + BatchSssp.deviceBytes(path),
                GpuSsspSummaries.IMPLEMENTATION.deviceBytes(path));
    }

    @Test
    void batchesSplitIntoFewestPassesOfNearlyEqualSize() {
        assertArrayEquals(new int[] {4, 3, 3, 3}, MultiSssp.passSizes(13, 4));
        assertArrayEquals(new int[] {20, 20}, MultiSssp.passSizes(40, 32));
        assertArrayEquals(new int[] {13}, MultiSssp.passSizes(13, 32));
        assertArrayEquals(new int[] {1, 1, 1}, MultiSssp.passSizes(3, 1));
        assertArrayEquals(new int[] {17, 16}, MultiSssp.passSizes(33, 32));
    }
}
