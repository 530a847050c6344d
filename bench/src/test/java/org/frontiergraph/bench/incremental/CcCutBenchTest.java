package org.frontiergraph.bench.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CcCutBench small: a 24 x 24 road-like grid (undirected) through the command line, and a directed grid whose roads
 * are arcs both ways (NY's case: a cut removes both, and the repair reads the transpose) through {@link
 * CcCutBench#measure}. Every repaired answer is checked against the recompute inside the run (a mismatch throws), so
 * finishing is the check; here: the rows are there with sane numbers and the table was written. Not a measurement.
 */
class CcCutBenchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void cutsAndRestoresAGridAndTabulatesThem() throws Exception {
        Path out = dir.resolve("cc-cut-bench.md");
        CcCutBench.Outcome r = CcCutBench.run(CcCutBench.Options.parse(new String[] {"--graphs", "grid24", "--pairs", "60",
                "--warmup", "5", "--out", out.toString()}));
        assertEquals(3, r.rows().size(), "cuts, cuts that split, restores");
        assertEquals(60, r.rows().get(0).batches());
        assertEquals(60, r.rows().get(2).batches());
        String md = Files.readString(out);
        assertEquals(r.markdown() + "\n", md);
        for (String s : new String[] {"### CcCutBench", "**Standing CC repaired vs recomputed**", "| grid24 | cut | 60 |",
                "| grid24 | restore | 60 |", "Every repaired answer equalled the recompute"}) {
            assertTrue(md.contains(s), () -> "the table lacks " + s + ":\n" + md);
        }
    }

    @Test
    @Timeout(120)
    void aDirectedGraphsCutsReadItsTranspose() {
        int side = 20;
        EdgeList e = new EdgeList(side * side, true);
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                int v = y * side + x;
                if (x + 1 < side) { e.add(v, v + 1, 1 + x % 5); e.add(v + 1, v, 1 + x % 5); }
                // the lower half is a comb (its rows joined at x = 0 alone): cutting one of its roads splits it
                if (y + 1 < side && (y < side / 2 || x == 0)) { e.add(v, v + side, 2); e.add(v + side, v, 2); }
            }
        }
        CsrGraph g = GraphBuilder.build(e);
        List<CcCutBench.Row> rows = CcCutBench.measure("grid20-directed", g, 80, 5, 7);
        CcCutBench.Row cuts = rows.get(0), splits = rows.get(1);
        assertEquals(80, cuts.batches());
        assertTrue(splits.batches() > 0, "some cut splits the comb");
        for (CcCutBench.Row row : rows) {
            for (double ms : row.times().transpose()) assertTrue(ms >= 0, row::toString);
            for (double ms : row.times().recompute()) assertTrue(ms > 0, row::toString);
        }
    }

    @Test
    void badCommandLinesAreRefused() {
        for (String[] args : new String[][] {{"--pairs", "0"}, {"--warmup", "-1"}, {"--graphs", ","}, {"--nonsense", "1"},
                {"--graphs"}}) {
            assertThrows(IllegalArgumentException.class, () -> CcCutBench.Options.parse(args), String.join(" ", args));
        }
    }
}
