package org.frontiergraph.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table and the agreement checks, from canned outputs of Frontier's step, gapbs (with gapbs-check-cc) and ecl-mst-runs. */
class PeerReportTest {
    @TempDir
    Path work;
    GraphDir dir;

    static final int[] LEVELS = {0, 1, 2, -1};
    static final int[] DISTANCES = {0, 7, 10, -1};
    static final int[] LABELS = {0, 0, 0, 3};

    /** What gapbs bfs / sssp print (util.h PrintTime), for one source. */
    static String gapbsLog(double... trials) {
        StringBuilder b = new StringBuilder("Read Time:           0.01365\n"
                + "Graph has 4 nodes and 6 directed edges for degree: 1\n");
        double sum = 0;
        for (double t : trials) {
            b.append(String.format(java.util.Locale.ROOT, "Trial Time:          %.5f%n", t));
            sum += t;
        }
        return b.append(String.format(java.util.Locale.ROOT, "Average Time:        %.5f%n", sum / trials.length))
                .toString();
    }

    static final String ECL_LOG = "input: g.egr, 4 nodes, 6 arcs\nGPU: NVIDIA H200 with 132 SMs\n"
            + "Dev+:  0.090000000 s\nDev+:  0.012000000 s\nDev+:  0.011000000 s\nDev+:  0.013000000 s\n"
            + "Host:  0.000004000 s\nall good\n\nMST weight: 10\nMST edges: 2\nMST hash: 18446744073709551615\n";

    @BeforeEach
    void canned() throws IOException {
        dir = GraphDir.of(work, "tiny");
        Files.createDirectories(dir.dir());
        Files.writeString(work.resolve(GraphDir.GRAPHS), "tiny\n");
        Files.writeString(dir.frontier(), "graph=tiny\nvertices=4\narcs=6\ndirected=false\nengine=gpu\n"
                + "device=NVIDIA H200 (sm_90, 132 SMs, 143000 MiB)\nsources=1 2 3\ncheck=1\nbfs.ms=0.5000\n"
                + "sssp.ms=2.0000\nmst.ms=1.0000\nmst.weight=10\nmst.edges=2\nmst.components=2\n"
                + "mst.hash=18446744073709551615\ncc.ms=0.2000\ncc.components=2\ncc.largest=3\n");
        Files.writeString(dir.gapbsBfsLog(1), gapbsLog(0.010, 0.012));
        Files.writeString(dir.gapbsBfsLog(2), gapbsLog(0.020, 0.020));
        Files.writeString(dir.gapbsBfsLog(3), gapbsLog(0.004, 0.006));
        for (int s = 1; s <= 3; s++) Files.writeString(dir.gapbsSsspLog(s), gapbsLog(0.001 * s * 4));
        Files.writeString(dir.gapbsCheckLog(), "Read Time:           0.00029\n"
                + "bfs source 1: 0.00008 s, reached 3, gapbs verifier PASS\n"
                + "sssp source 1: 0.00043 s, reached 3, gapbs verifier PASS\n"
                + "cc: 0.00002 s, 2 components, gapbs verifier PASS\n");
        Files.writeString(dir.gapbsCcLog(), gapbsLog(0.004, 0.004));
        PeerFiles.writeInts(dir.frontierCc(), LABELS);
        PeerFiles.writeInts(dir.gapbsCc(), LABELS);
        PeerFiles.writeInts(dir.frontierBfs(1), LEVELS);
        PeerFiles.writeInts(dir.gapbsBfs(1), LEVELS);
        PeerFiles.writeInts(dir.frontierSssp(1), DISTANCES);
        PeerFiles.writeInts(dir.gapbsSssp(1), DISTANCES);
        Files.writeString(dir.eclLog(), ECL_LOG);
    }

    @Test
    void agreeingAnswersGiveTheTimesAndRatios() throws IOException {
        PeerReport.GraphReport r = PeerReport.read(dir);
        assertTrue(r.agree(), String.valueOf(r.problems()));
        assertEquals(0.5, r.frontierBfs());
        assertEquals(11.0, r.gapbsBfs(), 1e-9, "median of the per-source averages 11, 20, 5 ms");
        assertEquals(8.0, r.gapbsSssp(), 1e-9, "median of 4, 8, 12 ms");
        assertEquals(12.0, r.eclMst(), 1e-9, "median of 12, 11, 13 ms: the first run (90 ms) excluded");
        assertEquals(4.0, r.gapbsCc(), 1e-9);
        assertEquals(4, r.checks().size(), String.valueOf(r.checks()));
        assertTrue(r.checks().get(3).contains("CC: gapbs's labels"), r.checks().get(3));
        assertTrue(r.checks().get(0).contains("BFS levels from 1 source (1)"), r.checks().get(0));
        assertTrue(r.checks().get(2).contains("weight 10"), r.checks().get(2));

        String table = PeerReport.render(List.of(r), "2026-11-23", "machine", "deploy/gpu/peers.sh", 4);
        assertTrue(table.contains("| tiny | 0.500 / 11.00 ms = 0.045 (22.0x faster) | 2.00 / 8.00 ms = 0.25 (4.0x "
                + "faster) | 1.00 / 12.00 ms = 0.083 (12.0x faster) | 0.200 / 4.00 ms = 0.050 (20.0x faster) | agree |"),
                table);
        assertTrue(table.contains("Command: `deploy/gpu/peers.sh`"), table);
    }

    @Test
    void aDifferentDistanceIsReportedWithTheVertex() throws IOException {
        PeerFiles.writeInts(dir.gapbsSssp(1), new int[] {0, 7, 11, -1});
        PeerReport.GraphReport r = PeerReport.read(dir);
        assertFalse(r.agree());
        assertEquals(List.of("SSSP distances from 1 differ: 1 vertices, first 2: Frontier 10, gapbs 11 "
                + "(-1 = unreached)"), r.problems());
        assertTrue(PeerReport.render(List.of(r), "d", "m", null, 4).contains("**DIFFER / incomplete**"));
    }

    @Test
    void aFailedVerifierOrMissingAnswerIsAProblem() throws IOException {
        Files.writeString(dir.gapbsCheckLog(), "bfs source 1: 0.1 s, reached 3, gapbs verifier FAIL\n");
        PeerReport.GraphReport r = PeerReport.read(dir);
        assertTrue(r.problems().contains("gapbs bfs from 1: its own verifier says FAIL"), String.valueOf(r.problems()));
        assertTrue(r.problems().contains("gapbs sssp from 1: its own verifier did not report (not run?)"),
                String.valueOf(r.problems()));
        Files.delete(dir.gapbsBfs(1));
        assertTrue(PeerReport.read(dir).problems().contains("BFS levels from 1: gapbs's answer file is missing"));
    }

    @Test
    void aDifferentMstOrAMissingSelfCheckIsAProblem() throws IOException {
        Files.writeString(dir.eclLog(), ECL_LOG.replace("MST weight: 10", "MST weight: 11").replace("all good", ""));
        PeerReport.GraphReport r = PeerReport.read(dir);
        assertEquals(List.of("MST weight: Frontier 10, ECL-MST 11",
                "ECL-MST's own Kruskal check did not say \"all good\""), r.problems());
    }

    @Test
    void differentComponentsOrAFailedCcVerifierAreProblems() throws IOException {
        PeerFiles.writeInts(dir.gapbsCc(), new int[] {0, 0, 2, 3});
        Files.writeString(dir.gapbsCheckLog(), Files.readString(dir.gapbsCheckLog()).replace("components, gapbs verifier PASS",
                "components, gapbs verifier FAIL"));
        PeerReport.GraphReport r = PeerReport.read(dir);
        assertEquals(List.of("gapbs cc: its own CCVerifier says FAIL",
                "CC labels differ: 1 vertices, first 2: Frontier 0, gapbs 2 (-1 = unreached)"), r.problems());
        Files.delete(dir.gapbsCcLog());
        assertTrue(PeerReport.read(dir).problems().contains("gapbs cc: no \"Average Time\" in gapbs-cc.log (not run?)"));
    }

    @Test
    void missingPeerRunsLeaveHolesNotNumbers() throws IOException {
        Files.delete(dir.gapbsBfsLog(3));
        Files.writeString(dir.gapbsBfsLog(2), "skipped: budget of 500s spent\n");
        for (int s = 1; s <= 3; s++) Files.delete(dir.gapbsSsspLog(s));
        Files.delete(dir.eclLog());
        PeerReport.GraphReport r = PeerReport.read(dir);
        assertEquals(11.0, r.gapbsBfs(), 1e-9);
        assertNull(r.gapbsSssp());
        assertNull(r.eclMst());
        assertTrue(r.problems().contains("gapbs bfs: timed 1 of 3 sources"), String.valueOf(r.problems()));
        assertEquals("2.00 ms / —", PeerReport.cell(r.frontierSssp(), r.gapbsSssp()));
        assertEquals("0.500 / 11.00 ms = 0.045 (22.0x faster)", PeerReport.cell(r.frontierBfs(), r.gapbsBfs()));
        assertEquals("2.00 / 1.00 ms = 2.00 (2.0x slower)", PeerReport.cell(2.0, 1.0));
    }

    @Test
    void exitStatusTellsWhetherEverythingAgreed() throws IOException {
        Path out = work.resolve("peers.md");
        assertEquals(0, PeerReport.report(work, out, "cmd", 4));
        assertTrue(Files.readString(out).contains("| tiny |"));
        PeerFiles.writeInts(dir.gapbsBfs(1), new int[] {0, 1, 2, 3});
        assertEquals(1, PeerReport.report(work, out, "cmd", 4));
    }
}
