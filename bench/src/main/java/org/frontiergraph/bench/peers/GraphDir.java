package org.frontiergraph.bench.peers;

import java.nio.file.Path;

/**
 * The files of one graph in the peers' work folder, shared by {@link PeerBench} (which writes the graph, the sources
 * and Frontier's side), {@code deploy/gpu/peers.sh} (which runs the peers and writes their logs and answers) and
 * {@link PeerReport} (which reads both). The script spells the same names: change both together.
 *
 * <pre>
 * WORK/graphs.txt                   the graphs, one name a line, in order
 * WORK/NAME/g.sg g.wsg g.egr        the graph for gapbs bfs, gapbs sssp, ECL-MST
 * WORK/NAME/graph.env               SOURCES="..." CHECK="..." DELTA=... (sourced by the script)
 * WORK/NAME/frontier.properties     Frontier's times and MST answer
 * WORK/NAME/frontier-bfs-S.i32      Frontier's BFS levels from check source S (int32 LE, -1 unreached)
 * WORK/NAME/frontier-sssp-S.i32     Frontier's SSSP distances from S (int32 LE, -1 unreachable)
 * WORK/NAME/gapbs-bfs-S.log         gapbs bfs -f g.sg -r S -n TRIALS  (timing)
 * WORK/NAME/gapbs-sssp-S.log        gapbs sssp -f g.wsg -r S -n TRIALS -d DELTA  (timing)
 * WORK/NAME/gapbs-bfs-S.i32         levels of gapbs's BFS tree from S  (gapbs-check-bfs)
 * WORK/NAME/gapbs-sssp-S.i32        gapbs's delta-stepping distances from S  (gapbs-check-sssp)
 * WORK/NAME/gapbs-check.log         both check programs' output (gapbs's own verifiers)
 * WORK/NAME/ecl-mst.log             ecl-mst-runs g.egr RUNS: one "Dev" time per run, its Kruskal check, the MST
 * WORK/NAME/frontier-cc.i32         Frontier's CC labels (int32 LE, each component's smallest vertex)
 * WORK/NAME/gapbs-cc.log            gapbs cc -f g.sg -n 4*TRIALS  (timing)
 * WORK/NAME/gapbs-cc.i32            gapbs's Afforest labels, each renamed to its component's smallest vertex
 *                                   (gapbs-check-cc, which also runs gapbs's CCVerifier into gapbs-check.log)
 * </pre>
 */
record GraphDir(Path dir) {
    static final String GRAPHS = "graphs.txt";

    static GraphDir of(Path work, String graph) {
        return new GraphDir(work.resolve(graph));
    }

    String name() { return dir.getFileName().toString(); }
    Path sg() { return dir.resolve("g.sg"); }
    Path wsg() { return dir.resolve("g.wsg"); }
    Path egr() { return dir.resolve("g.egr"); }
    Path env() { return dir.resolve("graph.env"); }
    Path frontier() { return dir.resolve("frontier.properties"); }
    Path frontierBfs(int source) { return dir.resolve("frontier-bfs-" + source + ".i32"); }
    Path frontierSssp(int source) { return dir.resolve("frontier-sssp-" + source + ".i32"); }
    Path gapbsBfsLog(int source) { return dir.resolve("gapbs-bfs-" + source + ".log"); }
    Path gapbsSsspLog(int source) { return dir.resolve("gapbs-sssp-" + source + ".log"); }
    Path gapbsBfs(int source) { return dir.resolve("gapbs-bfs-" + source + ".i32"); }
    Path gapbsSssp(int source) { return dir.resolve("gapbs-sssp-" + source + ".i32"); }
    Path gapbsCheckLog() { return dir.resolve("gapbs-check.log"); }
    Path eclLog() { return dir.resolve("ecl-mst.log"); }
    Path frontierCc() { return dir.resolve("frontier-cc.i32"); }
    Path gapbsCcLog() { return dir.resolve("gapbs-cc.log"); }
    Path gapbsCc() { return dir.resolve("gapbs-cc.i32"); }
}
