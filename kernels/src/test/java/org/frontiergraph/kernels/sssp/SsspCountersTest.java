package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.junit.jupiter.api.Test;

/** The host reads sssp.cu's counter slots by the same numbers the kernel writes them at. */
class SsspCountersTest {
    @Test
    void hostSlotsMirrorTheKernelEnum() {
        Map<String, Integer> slots = CudaCounters.slots("sssp.cu", "SsspCounter");
        assertEquals(SsspCounters.ITERATIONS, slots.get("SSSP_ITERATIONS"));
        assertEquals(SsspCounters.FILTERS, slots.get("SSSP_FILTERS"));
        assertEquals(SsspCounters.REACHED, slots.get("SSSP_REACHED"));
        assertEquals(SsspCounters.COUNT, slots.get("SSSP_COUNTERS"));
        // every slot the kernel uses lies below the size the host allocates
        slots.forEach((name, slot) -> assertEquals(true, slot <= SsspCounters.COUNT, name + " = " + slot));
    }
}
