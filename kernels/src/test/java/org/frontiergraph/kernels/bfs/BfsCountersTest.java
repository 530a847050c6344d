package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.junit.jupiter.api.Test;

/** The host reads bfs.cu's and bfs_multi.cu's counter slots by the same numbers the kernels write them at. */
class BfsCountersTest {
    @Test
    void hostSlotsMirrorTheKernelEnum() {
        Map<String, Integer> slots = new HashMap<>(CudaCounters.slots("bfs.cu", "BfsCounter"));
        // block 0's hand-over: six slots from AT_LEVEL on, read on the device only
        List<String> handOver = List.of("LEVEL", "OFFSET", "COUNT", "ARCS", "EXPLORED", "ROTATION");
        for (int i = 0; i < handOver.size(); i++) {
            assertEquals(BfsCounters.AT_LEVEL + i, slots.remove("BFS_AT_" + handOver.get(i)), handOver.get(i));
        }
        assertTrue(BfsCounters.AT_LEVEL + handOver.size() <= BfsCounters.COUNT);
        assertEquals(Map.of("BFS_NEXT_COUNT", BfsCounters.NEXT_COUNT, "BFS_NEXT_ARCS", BfsCounters.NEXT_ARCS,
                        "BFS_LEVELS", BfsCounters.LEVELS, "BFS_REACHED", BfsCounters.REACHED,
                        "BFS_COUNTERS", BfsCounters.COUNT), slots);
    }

    @Test
    void multiSourceSlotsMirrorTheKernelEnum() {
        Map<String, Integer> slots = CudaCounters.slots("bfs_multi.cu", "MsBfsCounter");
        assertEquals(MultiSourceBfs.LEVELS, slots.get("MSBFS_LEVELS"));
        assertEquals(MultiSourceBfs.COUNTERS, slots.get("MSBFS_COUNTERS"));
    }
}
