package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;

/** {@link BatchSssp}'s sizing and the counter slots it shares with sssp_batch.cu; which graphs take it by default. */
class BatchSsspTest {
    @Test
    void slotsFillTheBudgetUpToTheirMaximum() {
        assertEquals(0, BatchSssp.slots(0));
        assertEquals(BatchSssp.MAX_SLOTS, BatchSssp.slots(1_000));
        assertEquals(253, BatchSssp.slots(264_346));   // USA-road-d.NY: 2 GiB / (32 n + 4) bytes
        assertEquals(0, BatchSssp.slots(BatchSssp.SLOT_BYTES / 32));
    }

    @Test
    void deviceBytesCountEveryBuffer() {
        long n = 264_346, sn = 253 * n;  // keys and marks, four lists, clocks, counters, sources
        assertEquals(16 * sn + 16 * sn + 4 * 253 + 8 * BatchSssp.COUNTERS + 4 * SummaryBuffer.INITIAL,
                BatchSssp.deviceBytes(TestGraphs.path((int) n)));
        assertEquals(DeviceBuffer.total(BatchSssp.sizes(n, 253)), BatchSssp.deviceBytes(TestGraphs.path((int) n)));
    }

    @Test
    void sparseGraphsTakeItDenseOnesDoNot() {
        assertTrue(GpuSsspSummaries.batches(TestGraphs.path(1_000)));
        var kron = GraphBuilder.build(KroneckerGraph.generate(10, 16, 3));
        assertFalse(GpuSsspSummaries.batches(kron));
        assertEquals(16L * SummaryBuffer.INITIAL + MultiSssp.deviceBytes(kron),
                GpuSsspSummaries.IMPLEMENTATION.deviceBytes(kron));
    }

    @Test
    void counterSlotsMatchTheKernel() throws IOException {
        Path cu = Path.of(Files.isDirectory(Path.of("src/main/cuda")) ? "src/main/cuda" : "kernels/src/main/cuda")
                .resolve("sssp_batch.cu");
        String text = Files.readString(cu);
        assertEquals(BatchSssp.NEXT, slot(text, "BSSSP_NEXT"));
        assertEquals(BatchSssp.STEPS, slot(text, "BSSSP_STEPS"));
        assertEquals(BatchSssp.FILTERS, slot(text, "BSSSP_FILTERS"));
        assertEquals(BatchSssp.ITEMS, slot(text, "BSSSP_ITEMS"));
        assertEquals(BatchSssp.COUNTERS, slot(text, "BSSSP_COUNTERS"));
    }

    private static int slot(String text, String name) {
        Matcher m = Pattern.compile(name + " = (\\d+)").matcher(text);
        assertTrue(m.find(), name);
        return Integer.parseInt(m.group(1));
    }
}
