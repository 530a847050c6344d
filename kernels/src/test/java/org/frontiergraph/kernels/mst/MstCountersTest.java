package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.junit.jupiter.api.Test;

/** The host reads mst.cu's counter slots by the same numbers the kernel writes them at. */
class MstCountersTest {
    @Test
    void hostSlotsMirrorTheKernelEnum() {
        Map<String, Integer> slots = CudaCounters.slots("mst.cu", "MstCounter");
        assertEquals(MstCounters.ROUNDS, slots.get("MST_ROUNDS"));
        assertEquals(MstCounters.COUNT, slots.get("MST_COUNTERS"));
        slots.forEach((name, slot) -> assertEquals(true, slot <= MstCounters.COUNT, name + " = " + slot));
    }
}
