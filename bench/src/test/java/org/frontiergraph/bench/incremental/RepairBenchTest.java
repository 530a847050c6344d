package org.frontiergraph.bench.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RepairBench small, on the CPU engine: a 24 x 24 road-like grid (directed arcs both ways would be NY's case; the
 * grid is undirected) and a 1,024-vertex Kronecker graph, batches of 1, 10 and 100 updates in both series, then the
 * DELTA/FULL bytes through the worker's subscription service in this process. Every repaired answer is checked
 * against the recompute inside the run (a mismatch throws), so finishing is the check; here: every row is there with
 * sane numbers, and the table was written. Not a measurement.
 */
class RepairBenchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void repairsAndRecomputesEveryAlgorithmAndSeriesAndMeasuresDeltaBytes() throws Exception {
        Path out = dir.resolve("repair-bench.md");
        RepairBench.Options o = RepairBench.Options.parse(new String[] {"--graphs", "grid24,kron10", "--batches", "1,10,100",
                "--repeats", "2", "--delta-updates", "40", "--backend", "cpu", "--out", out.toString()});
        long t0 = System.nanoTime();
        RepairBench.Outcome r = RepairBench.run(o);
        System.out.println(r.markdown());
        System.out.println("[repair-bench test] took " + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms");

        assertEquals(2 * 2 * 3 * 3, r.rows().size(), "2 graphs x 2 series x 3 batch sizes x 3 algorithms");
        for (RepairBench.Row row : r.rows()) {
            assertEquals(2, row.batches(), row::toString);
            assertTrue(row.repairMs() > 0 && row.cpuMs() > 0, row::toString);
            assertTrue(Double.isNaN(row.gpuMs()) && Double.isNaN(row.gpuSyncMs()), "no GPU columns on the CPU engine: " + row);
            assertTrue(row.fellBack() >= 0 && row.fellBack() <= row.batches(), row::toString);
        }
        assertTrue(RepairBench.byKey(r.rows()).containsKey("grid24/SSSP/remove/insert/100"));
        assertEquals(2 * 2 * 3, r.shared().size(), "a shared-cost row per graph, series and batch size");
        for (RepairBench.SharedRow s : r.shared()) {
            assertTrue(s.applyMs() > 0 && s.mergeMs() >= 0 && s.transposeMs() >= 0 && s.edgeListMs() >= 0, s::toString);
        }
        assertEquals(2 * 3, r.deltas().size(), "a DELTA row per graph and algorithm");
        for (DeltaBytes.Row d : r.deltas()) {
            assertEquals(40, d.updates(), d::toString);
            assertTrue(d.fullBytes() > 0, d::toString);
            if (d.algorithm().equals("BFS")) {
                assertEquals(0, d.deltaPushes() + d.completePushes(), "re-weights never change BFS hops: " + d);
            } else if (d.deltaPushes() > 0) {
                assertTrue(d.bytesMedian() > 0 && d.bytesMedian() < d.fullBytes(), d::toString);
            }
        }
        assertTrue(r.deltas().stream().anyMatch(d -> d.algorithm().equals("SSSP") && d.deltaPushes() > 0), "some re-weight changed an SSSP answer");
        String md = Files.readString(out);
        assertEquals(r.markdown() + "\n", md);
        for (String s : new String[] {"### RepairBench", "**Repair vs recompute**", "**Shared per batch**", "**DELTA vs FULL bytes**",
                "| grid24 | SSSP | re-weights | 1 |",
                "| kron10 | MST | remove/insert | 100 |", "Every repaired answer equalled the recompute"}) {
            assertTrue(md.contains(s), () -> "the table lacks " + s + ":\n" + md);
        }
        assertFalse(md.contains("MISMATCH"));
    }

    @Test
    void badCommandLinesAreRefused() {
        for (String[] args : new String[][] {{"--batches", "0"}, {"--repeats", "0"}, {"--backend", "tpu"}, {"--series", "warp"},
                {"--graphs", ","}, {"--nonsense", "1"}, {"--graphs"}}) {
            assertThrows(IllegalArgumentException.class, () -> RepairBench.Options.parse(args), String.join(" ", args));
        }
        RepairBench.Options o = RepairBench.Options.parse(new String[] {"--series", "structural", "--batches", "1,10_000"});
        assertEquals(1, o.series().size());
        assertEquals(10_000, o.batches()[1]);
    }
}
