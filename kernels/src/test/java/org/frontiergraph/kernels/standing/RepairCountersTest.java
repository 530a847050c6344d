package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.frontiergraph.kernels.sssp.KeyForm;
import org.junit.jupiter.api.Test;

/** The host reads sssp_repair.cu's slots and tables, and launches its entry points, as the kernels define them. */
class RepairCountersTest {
    @Test
    void hostSlotsMirrorTheKernelEnum() {
        Map<String, Integer> slots = CudaCounters.slots("sssp_repair.cu", "RepairCounter");
        for (RepairCounter c : RepairCounter.values()) assertEquals(slots.get("REPAIR_" + c.name()), c.slot, c.name());
        assertEquals(slots.get("REPAIR_COUNTERS"), RepairCounter.COUNTERS);
        assertEquals(slots.size() - 1, RepairCounter.values().length, "every kernel slot has its counter: " + slots.keySet());
        slots.forEach((name, slot) -> assertTrue(slot <= RepairCounter.COUNTERS, name + " = " + slot));
        assertEquals(CudaCounters.slots("sssp_repair.cu", "GroupCounter").get("GROUP_COUNTERS"), RepairCounter.GROUP_COUNTERS);
    }

    @Test
    void aTreeRowHasTheStructsPointers() throws IOException {
        String text = source("sssp_repair.cu");
        int at = text.indexOf("struct RepairTree {");
        String body = text.substring(text.indexOf('{', at) + 1, text.indexOf("};", at));
        long fields = body.lines().map(l -> l.replaceAll("//.*", "").trim()).filter(l -> l.endsWith(";")).count();
        assertEquals(RepairCounter.TREE_WORDS, fields);
    }

    @Test
    void everyKeyFormHasItsEntryPoints() throws IOException {
        String repair = source("sssp_repair.cu"), async = source("sssp_async.cu"), multi = source("sssp_multi.cu");
        for (KeyForm f : KeyForm.values()) {
            assertTrue(repair.contains("REPAIR(" + f.suffix() + ","), "repair_prepare_" + f.suffix());
            assertTrue(async.contains("sssp_async_seeded_" + f.suffix() + ","), "sssp_async_seeded_" + f.suffix());
            assertTrue(async.contains("sssp_async_seeded_slack_" + f.suffix() + ","), "sssp_async_seeded_slack_" + f.suffix());
            assertTrue(multi.contains("sssp_multi_seeded_" + f.suffix() + ","), "sssp_multi_seeded_" + f.suffix());
        }
    }

    private static String source(String file) throws IOException {
        Path dir = Files.isDirectory(Path.of("src/main/cuda")) ? Path.of("src/main/cuda") : Path.of("kernels/src/main/cuda");
        return Files.readString(dir.resolve(file));
    }
}
