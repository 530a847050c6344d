package org.frontiergraph.bench.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.frontiergraph.bench.peers.PeerFiles;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;

/**
 * GpuBench's {@code --small-reach N} rows: BFS and SSSP from sources whose search reaches few vertices (issue 31:
 * work in proportion to what is reached), where a search's fixed costs (clearing n entries, a grid barrier a level)
 * are all there is; each source's first answer is checked against the CPU engine.
 */
final class SmallReach {
    private static final long SEED = 20_260_131L;

    private SmallReach() {}

    static void bench(String name, CsrGraph g, GpuBackend gpu, ComputeBackend cpu, int count, int maxReach,
                      GpuBench.Variants variants, List<GpuBench.Row> rows, StringBuilder notes, Path peerFiles) {
        int[] sources = name.endsWith(GpuBench.CHAINS) ? chainHeads(g, count, maxReach)
                : smallReachSources(g, count, maxReach);
        String label = name + " reach<=" + maxReach;
        if (sources.length == 0) {
            notes.append("- ").append(label).append(": no source of non-zero degree reaches 2..").append(maxReach)
                    .append(" vertices\n");
            return;
        }
        try (ResidentGraph dev = gpu.load(g); ResidentGraph host = cpu.load(g)) {
            int[] reach = new int[sources.length];
            int deepest = 0;
            for (int i = 0; i < sources.length; i++) {
                BfsResult want = Bfs.run(host, sources[i], null);
                BfsVerifier.verify(g, sources[i], Bfs.run(dev, sources[i], null), want).orThrow();
                SsspResult ssspWant = Sssp.run(host, sources[i], null);
                SsspVerifier.verify(g, sources[i], Sssp.run(dev, sources[i], null), ssspWant).orThrow();
                reach[i] = (int) Arrays.stream(want.hops()).filter(h -> h >= 0).count();
                deepest = Math.max(deepest, Arrays.stream(want.hops()).max().orElse(0));
            }
            String line = label + ": " + sources.length + " sources " + join(sources) + ", reaching "
                    + join(reach) + " vertices (at most " + deepest + " hops); answers verified";
            System.out.println(line);
            notes.append("- ").append(line).append('\n');
            double cpuBfs = GpuBench.median(sources.length, sources, s -> Bfs.run(host, s, null).timing(), true);
            double cpuSssp = GpuBench.median(sources.length, sources, s -> Sssp.run(host, s, null).timing(), true);
            for (String v : variants.bfs()) {
                GpuBench.Timed t = GpuBench.timed(sources, s -> Bfs.run(dev, s, v).timing());
                rows.add(new GpuBench.Row(label, "BFS", v == null ? "default" : v, t.kernelMs(), t.queryMs(), cpuBfs,
                        "", t.stats()));
            }
            GpuBench.Timed summary = GpuBench.timed(sources,
                    s -> dev.run(Bfs.SUMMARIES, new Sources(new int[] {s}), null).timing());
            rows.add(new GpuBench.Row(label, "BFS", "SUMMARY, one source", summary.kernelMs(), summary.queryMs(),
                    cpuBfs, "", summary.stats()));
            for (String v : variants.sssp()) {
                GpuBench.Timed t = GpuBench.timed(sources, s -> Sssp.run(dev, s, v).timing());
                rows.add(new GpuBench.Row(label, "SSSP", v == null ? "default" : v, t.kernelMs(), t.queryMs(),
                        cpuSssp, "", t.stats()));
            }
            GpuBench.Timed ssspSummary = GpuBench.timed(sources,
                    s -> dev.run(Sssp.SUMMARIES, new Sources(new int[] {s}), null).timing());
            rows.add(new GpuBench.Row(label, "SSSP", "SUMMARY, one source", ssspSummary.kernelMs(),
                    ssspSummary.queryMs(), cpuSssp, "", ssspSummary.stats()));
        }
        if (peerFiles != null) write(name, g, sources, peerFiles);
    }

    /** The graph as gapbs reads it and the sources, one line: DIR/NAME.sg, NAME.wsg, NAME.sources. */
    private static void write(String name, CsrGraph g, int[] sources, Path dir) {
        try {
            Files.createDirectories(dir);
            PeerFiles.writeSg(g, dir.resolve(name + ".sg"));
            PeerFiles.writeWsg(g, dir.resolve(name + ".wsg"));
            Files.writeString(dir.resolve(name + ".sources"), join(sources) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Up to {@code count} distinct seeded sources of non-zero out-degree whose search reaches 2 to {@code maxReach}
     * vertices: seeded random candidates first, then every vertex in order until enough are found. A candidate's
     * search stops as soon as it passes {@code maxReach}.
     */
    static int[] smallReachSources(CsrGraph g, int count, int maxReach) {
        int n = g.vertexCount();
        int[] mark = new int[n];   // the stamp of the last search that reached the vertex
        int[] queue = new int[maxReach + 1];
        boolean[] chosen = new boolean[n];
        int[] found = new int[count];
        int k = 0, stamp = 0;
        SplittableRandom r = new SplittableRandom(SEED ^ g.arcCount());
        for (long tries = 0; k < count && tries < n + 20_000L; tries++) {
            int s = tries < 20_000 ? r.nextInt(n) : (int) (tries - 20_000);
            if (g.degree(s) == 0 || chosen[s]) continue;
            int reached = reach(g, s, maxReach, mark, ++stamp, queue);
            if (reached >= 2 && reached <= maxReach) {
                found[k++] = s;
                chosen[s] = true;
            }
        }
        return Arrays.copyOf(found, k);
    }

    /**
     * On a graph of {@link GpuBench#withChains}: the heads of up to {@code count} chains of at most {@code maxReach}
     * vertices, the longest first (a search from a head runs one level per vertex of its chain).
     */
    static int[] chainHeads(CsrGraph g, int count, int maxReach) {
        int[] head = new int[GpuBench.LONGEST_CHAIN + 1];
        int v = g.vertexCount();
        for (int len = GpuBench.LONGEST_CHAIN; len >= 2; len--) {
            v -= len;
            head[len] = v;
        }
        int longest = Math.min(maxReach, GpuBench.LONGEST_CHAIN);
        int k = Math.min(count, longest - 1);
        int[] s = new int[k];
        for (int i = 0; i < k; i++) s[i] = head[longest - i * (longest - 2) / Math.max(1, k - 1)];
        return s;
    }

    /** Vertices reached from s (at most max + 1: the search stops once past max). */
    private static int reach(CsrGraph g, int s, int max, int[] mark, int stamp, int[] queue) {
        int head = 0, tail = 0;
        queue[tail++] = s;
        mark[s] = stamp;
        int[] col = g.columns();
        while (head < tail) {
            int u = queue[head++];
            for (int k = g.rowStart(u); k < g.rowEnd(u); k++) {
                int v = col[k];
                if (mark[v] == stamp) continue;
                if (tail > max) return max + 1;
                mark[v] = stamp;
                queue[tail++] = v;
            }
        }
        return tail;
    }

    private static String join(int[] xs) {
        return Arrays.stream(xs).mapToObj(Integer::toString).collect(Collectors.joining(" "));
    }
}
