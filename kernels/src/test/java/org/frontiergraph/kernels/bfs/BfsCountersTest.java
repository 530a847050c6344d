package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.junit.jupiter.api.Test;

/** The host reads bfs.cu's and bfs_multi.cu's counter slots by the same numbers the kernels write them at. */
class BfsCountersTest {
    @Test
    void hostSlotsMirrorTheKernelEnum() {
        assertEquals(Map.of("BFS_NEXT_COUNT", BfsCounters.NEXT_COUNT, "BFS_NEXT_ARCS", BfsCounters.NEXT_ARCS,
                        "BFS_LEVELS", BfsCounters.LEVELS, "BFS_COUNTERS", BfsCounters.COUNT),
                CudaCounters.slots("bfs.cu", "BfsCounter"));
    }

    @Test
    void multiSourceSlotsMirrorTheKernelEnum() {
        Map<String, Integer> slots = CudaCounters.slots("bfs_multi.cu", "MsBfsCounter");
        assertEquals(MultiSourceBfs.LEVELS, slots.get("MSBFS_LEVELS"));
        assertEquals(MultiSourceBfs.COUNTERS, slots.get("MSBFS_COUNTERS"));
    }
}
