package org.frontiergraph.bench.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ManyTreesBench small: 8 trees of a 24 x 24 grid, 30 timed batches of 1 and of 10 re-weights. The three ways'
 * answers are compared after every batch and against DijkstraReference every 10th inside the run (a mismatch
 * throws), so finishing is the check; here: both rows are there and the table was written. Not a measurement.
 */
class ManyTreesBenchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void keepsManyTreesThreeWaysAndTheyAgree() throws Exception {
        Path out = dir.resolve("many-trees.md");
        ManyTreesBench.Options o = ManyTreesBench.Options.parse(new String[] {"--graph", "grid24", "--trees", "8",
                "--batches", "1,10", "--count", "30", "--check-every", "10", "--out", out.toString()});
        String md = ManyTreesBench.run(o);
        System.out.println(md);
        assertTrue(md.contains("| grid24 | 8 | 1 | 30 |"), md);
        assertTrue(md.contains("| grid24 | 8 | 10 | 30 |"), md);
        assertTrue(md.contains(" 48 trees checked against DijkstraReference"), md);
        assertEquals(md + "\n", Files.readString(out));
    }

    @Test
    void badCommandLinesAreRefused() {
        for (String[] args : new String[][] {{"--trees", "0"}, {"--batches", "1,0"}, {"--count"}, {"--nope", "1"}}) {
            assertThrows(IllegalArgumentException.class, () -> ManyTreesBench.Options.parse(args), String.join(" ", args));
        }
    }
}
