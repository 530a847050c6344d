package org.frontiergraph.bench.peers;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The second step of {@link PeerBench}: reads Frontier's side and the peers' logs and answers from the work folder
 * ({@link GraphDir}), checks that the answers agree and renders the ratio table (markdown).
 *
 * <p>Times: Frontier's are kernel times (median over the sources, after two warm-up runs); gapbs's are the median
 * over the sources of the "Average Time" that {@code bfs}/{@code sssp -r SOURCE -n TRIALS} prints for each; ECL-MST's
 * is the median of its "Dev" times, the first run excluded. Agreement (every check must hold, or the exit status is
 * 1): for each check source, gapbs's BFS levels (the depths of its BFS tree) and its SSSP distances equal Frontier's
 * on every vertex, and gapbs's own serial verifiers pass on the same files; ECL-MST's MST weight, edge count and
 * edge set (an order-free hash) equal Frontier's, and ECL-MST's own serial Kruskal check says "all good"; gapbs's
 * CC labels (Afforest's, each renamed to its component's smallest vertex) equal Frontier's on every vertex, and
 * gapbs's CCVerifier passes. gapbs cc's time is the "Average Time" of {@code cc -f g.sg -n 4*TRIALS} (one run per graph, so four
 * times the trials of one BFS source).
 */
final class PeerReport {
    private static final Pattern AVERAGE = Pattern.compile("(?m)^Average Time:\\s+([0-9.]+)\\s*$");
    private static final Pattern DEV = Pattern.compile("(?m)^Dev[+-]:\\s+([0-9.]+) s\\s*$");
    private static final Pattern CHECK =
            Pattern.compile("(?m)^(bfs|sssp) source (\\d+): .*gapbs verifier (PASS|FAIL)");
    private static final Pattern ECL_VALUE = Pattern.compile("(?m)^MST (weight|edges|hash): (\\d+)\\s*$");
    private static final Pattern CC_CHECK = Pattern.compile("(?m)^cc: .*gapbs verifier (PASS|FAIL)");

    /** One graph's line of the table and its notes. */
    record GraphReport(String graph, String shape, Double frontierBfs, Double gapbsBfs, Double frontierSssp,
                       Double gapbsSssp, Double frontierMst, Double eclMst, Double frontierCc, Double gapbsCc,
                       List<String> checks,
                       List<String> problems) {
        boolean agree() { return problems.isEmpty(); }
    }

    private PeerReport() {}

    /** Prints the table (and writes it to {@code out} when given); 0 when every answer agrees, else 1. */
    static int report(Path work, Path out, String command, int trials) throws IOException {
        List<String> graphs = Files.exists(work.resolve(GraphDir.GRAPHS))
                ? Files.readAllLines(work.resolve(GraphDir.GRAPHS)) : List.of();
        List<GraphReport> reports = new ArrayList<>();
        String device = "unknown";
        for (String g : graphs) {
            if (g.isBlank()) continue;
            GraphDir dir = GraphDir.of(work, g.trim());
            reports.add(read(dir));
            Properties p = load(dir.frontier());
            device = p.getProperty("engine", "?") + ": " + p.getProperty("device", "unknown");
        }
        String machine = "Frontier on " + device + "; gapbs on " + Runtime.getRuntime().availableProcessors()
                + " cores of " + cpuModel();
        String table = render(reports, LocalDate.now().toString(), machine, command, trials);
        System.out.print(table);
        if (out != null) Files.writeString(out, table);
        return !reports.isEmpty() && reports.stream().allMatch(GraphReport::agree) ? 0 : 1;
    }

    /** Reads one graph's folder: times, and every agreement check. */
    static GraphReport read(GraphDir dir) throws IOException {
        Properties f = load(dir.frontier());
        List<String> checks = new ArrayList<>(), problems = new ArrayList<>();
        int[] sources = ints(f.getProperty("sources", ""));
        int[] checked = ints(f.getProperty("check", ""));
        String shape = f.getProperty("vertices", "?") + " vertices, " + f.getProperty("arcs", "?") + " arcs"
                + ("true".equals(f.getProperty("directed")) ? ", directed" : "");

        Double gapbsBfs = gapbsMedian(dir, sources, true, problems);
        Double gapbsSssp = gapbsMedian(dir, sources, false, problems);
        String checkLog = read(dir.gapbsCheckLog());
        compareAnswers(dir, checked, true, checkLog, checks, problems);
        compareAnswers(dir, checked, false, checkLog, checks, problems);

        String ecl = read(dir.eclLog());
        Double eclMs = eclMedian(ecl);
        compareMst(f, ecl, checks, problems);
        if (eclMs == null) problems.add("ECL-MST: no Dev time in ecl-mst.log (not run?)");

        Double gapbsCc = gapbsAverageSeconds(read(dir.gapbsCcLog()));
        if (gapbsCc == null) problems.add("gapbs cc: no \"Average Time\" in gapbs-cc.log (not run?)");
        compareCc(dir, checkLog, checks, problems);

        return new GraphReport(dir.name(), shape, number(f, "bfs.ms"), gapbsBfs, number(f, "sssp.ms"), gapbsSssp,
                number(f, "mst.ms"), eclMs, number(f, "cc.ms"), gapbsCc == null ? null : gapbsCc * 1e3, checks,
                problems);
    }

    /** Median over the sources of gapbs's per-source "Average Time", in ms; null when none ran. */
    static Double gapbsMedian(GraphDir dir, int[] sources, boolean bfs, List<String> problems) throws IOException {
        List<Double> ms = new ArrayList<>();
        for (int s : sources) {
            Double seconds = gapbsAverageSeconds(read(bfs ? dir.gapbsBfsLog(s) : dir.gapbsSsspLog(s)));
            if (seconds != null) ms.add(seconds * 1e3);
        }
        String what = bfs ? "gapbs bfs" : "gapbs sssp";
        if (ms.isEmpty()) {
            problems.add(what + ": no \"Average Time\" in any source's log (not run?)");
            return null;
        }
        if (ms.size() < sources.length) {
            problems.add(what + ": timed " + ms.size() + " of " + sources.length + " sources");
        }
        return PeerBench.median(ms.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** gapbs's "Average Time" in seconds, or null. */
    static Double gapbsAverageSeconds(String log) {
        Matcher m = AVERAGE.matcher(log);
        return m.find() ? Double.parseDouble(m.group(1)) : null;
    }

    /** Median of ECL-MST's "Dev" times in ms, the first run excluded when there are several; null when none. */
    static Double eclMedian(String log) {
        List<Double> runs = new ArrayList<>();
        Matcher m = DEV.matcher(log);
        while (m.find()) runs.add(Double.parseDouble(m.group(1)) * 1e3);
        if (runs.isEmpty()) return null;
        List<Double> timed = runs.size() > 1 ? runs.subList(1, runs.size()) : runs;
        return PeerBench.median(timed.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** BFS levels or SSSP distances of each check source: gapbs's verifier and gapbs's answer equal to Frontier's. */
    static void compareAnswers(GraphDir dir, int[] checked, boolean bfs, String checkLog, List<String> checks,
                               List<String> problems) throws IOException {
        String what = bfs ? "BFS levels" : "SSSP distances";
        String kind = bfs ? "bfs" : "sssp";
        int equal = 0;
        long vertices = -1;
        for (int s : checked) {
            String verdict = verifierVerdict(checkLog, kind, s);
            if (!"PASS".equals(verdict)) {
                problems.add("gapbs " + kind + " from " + s + ": its own verifier "
                        + (verdict == null ? "did not report (not run?)" : "says " + verdict));
            }
            Path mine = bfs ? dir.frontierBfs(s) : dir.frontierSssp(s);
            Path theirs = bfs ? dir.gapbsBfs(s) : dir.gapbsSssp(s);
            if (!Files.exists(theirs) || !Files.exists(mine)) {
                problems.add(what + " from " + s + ": " + (Files.exists(mine) ? "gapbs's" : "Frontier's")
                        + " answer file is missing");
                continue;
            }
            String diff = difference(readInts(mine), readInts(theirs));
            if (diff != null) {
                problems.add(what + " from " + s + " differ: " + diff);
            } else {
                equal++;
                vertices = Files.size(mine) / 4;
            }
        }
        if (checked.length == 0) {
            problems.add(what + ": no check source");
        } else if (equal == checked.length) {
            checks.add(what + " from " + checked.length + " source" + (checked.length > 1 ? "s" : "") + " ("
                    + joined(checked) + "): gapbs's equal Frontier's on all " + vertices
                    + " vertices; gapbs's own verifier PASS");
        }
    }

    /** "PASS", "FAIL", or null when the check program reported nothing for that source. */
    static String verifierVerdict(String checkLog, String kind, int source) {
        Matcher m = CHECK.matcher(checkLog);
        String verdict = null;
        while (m.find()) {
            if (m.group(1).equals(kind) && Integer.parseInt(m.group(2)) == source) {
                verdict = "FAIL".equals(verdict) ? verdict : m.group(3);
            }
        }
        return verdict;
    }

    /** Null when equal, else where they first differ and how many vertices differ (-1 = unreached). */
    static String difference(int[] frontier, int[] gapbs) {
        if (frontier.length != gapbs.length) {
            return "Frontier has " + frontier.length + " vertices, gapbs " + gapbs.length;
        }
        int first = Arrays.mismatch(frontier, gapbs);
        if (first < 0) return null;
        int count = 0;
        for (int v = first; v < frontier.length; v++) if (frontier[v] != gapbs[v]) count++;
        return count + " vertices, first " + first + ": Frontier " + frontier[first] + ", gapbs " + gapbs[first]
                + " (-1 = unreached)";
    }

    /** ECL-MST's weight, edge count and edge-set hash against Frontier's; its own Kruskal check. */
    static void compareMst(Properties frontier, String ecl, List<String> checks, List<String> problems) {
        Properties theirs = new Properties();
        Matcher m = ECL_VALUE.matcher(ecl);
        while (m.find()) theirs.setProperty(m.group(1), m.group(2));
        if (theirs.isEmpty()) {
            problems.add("ECL-MST: no MST in ecl-mst.log (not run?)");
            return;
        }
        boolean ok = true;
        for (String key : new String[] {"weight", "edges", "hash"}) {
            String mine = frontier.getProperty("mst." + key), other = theirs.getProperty(key);
            if (mine == null || !mine.equals(other)) {
                problems.add("MST " + key + ": Frontier " + mine + ", ECL-MST " + other);
                ok = false;
            }
        }
        boolean selfCheck = ecl.contains("all good");
        if (!selfCheck) problems.add("ECL-MST's own Kruskal check did not say \"all good\"");
        if (ok) {
            checks.add("MST: ECL-MST's weight " + theirs.getProperty("weight") + ", " + theirs.getProperty("edges")
                    + " edges and edge set (order-free hash) equal Frontier's"
                    + (selfCheck ? "; ECL-MST's own Kruskal check: all good" : ""));
        }
    }

    /** gapbs's CC labels (renamed to each component's smallest vertex) against Frontier's; gapbs's CCVerifier. */
    static void compareCc(GraphDir dir, String checkLog, List<String> checks, List<String> problems) throws IOException {
        Matcher m = CC_CHECK.matcher(checkLog);
        String verdict = m.find() ? m.group(1) : null;
        if (!"PASS".equals(verdict)) {
            problems.add("gapbs cc: its own CCVerifier " + (verdict == null ? "did not report (not run?)" : "says " + verdict));
        }
        if (!Files.exists(dir.gapbsCc()) || !Files.exists(dir.frontierCc())) {
            problems.add("CC labels: " + (Files.exists(dir.frontierCc()) ? "gapbs's" : "Frontier's") + " answer file is missing");
            return;
        }
        int[] mine = readInts(dir.frontierCc());
        String diff = difference(mine, readInts(dir.gapbsCc()));
        if (diff != null) {
            problems.add("CC labels differ: " + diff);
        } else if ("PASS".equals(verdict)) {
            checks.add("CC: gapbs's labels (each component named by its smallest vertex) equal Frontier's on all "
                    + mine.length + " vertices; gapbs's own CCVerifier PASS");
        }
    }

    static String render(List<GraphReport> reports, String date, String machine, String command, int trials) {
        StringBuilder b = new StringBuilder();
        b.append("Date ").append(date).append("; ").append(machine).append('\n');
        if (command != null) b.append("Command: `").append(command).append("`\n");
        b.append('\n');
        b.append("| graph | BFS: Frontier / gapbs | SSSP: Frontier / gapbs | MST: Frontier / ECL-MST "
                + "| CC: Frontier / gapbs | answers |\n");
        b.append("|---|---|---|---|---|---|\n");
        for (GraphReport r : reports) {
            b.append("| ").append(r.graph).append(" | ").append(cell(r.frontierBfs, r.gapbsBfs)).append(" | ")
                    .append(cell(r.frontierSssp, r.gapbsSssp)).append(" | ").append(cell(r.frontierMst, r.eclMst))
                    .append(" | ").append(cell(r.frontierCc, r.gapbsCc)).append(" | ")
                    .append(r.agree() ? "agree" : "**DIFFER / incomplete**").append(" |\n");
        }
        b.append('\n');
        b.append("Cells: Frontier ms / peer ms = time ratio (below 1: Frontier is faster). Frontier: kernel time "
                + "(graph resident, answer not copied back), median over the sources after two warm-up runs. gapbs: "
                + "median over the same sources of the \"Average Time\" of `bfs -f g.sg -r SOURCE -n " + trials
                + "` and `sssp -f g.wsg -r SOURCE -n " + trials + " -d DELTA`, on every host core. ECL-MST: median "
                + "of its \"Dev\" kernel time (host timer, after upload, before copy-back), first run excluded. gapbs CC: "
                + "the \"Average Time\" of `cc -f g.sg -n " + 4 * trials + "` (Afforest), on every host core; Frontier's CC "
                + "is the median of as many runs as its MST's. "
                + "Every side read the same graph, written once by PeerBench.\n\n");
        for (GraphReport r : reports) {
            b.append("- ").append(r.graph).append(" (").append(r.shape).append(")\n");
            for (String c : r.checks) b.append("  - agree: ").append(c).append('\n');
            for (String p : r.problems) b.append("  - **PROBLEM**: ").append(p).append('\n');
        }
        if (reports.isEmpty()) b.append("- no graph was written (see the Frontier step's log)\n");
        return b.toString();
    }

    /** "0.412 / 15.2 ms = 0.027 (36.9x faster)", or what is missing. */
    static String cell(Double frontier, Double peer) {
        if (frontier == null && peer == null) return "not run";
        if (frontier == null) return "— / " + ms(peer) + " ms";
        if (peer == null) return ms(frontier) + " ms / —";
        double ratio = frontier / peer;
        String speed = ratio <= 1 ? String.format(Locale.ROOT, "%.1fx faster", 1 / ratio)
                : String.format(Locale.ROOT, "%.1fx slower", ratio);
        return ms(frontier) + " / " + ms(peer) + " ms = " + String.format(Locale.ROOT, ratio < 0.1 ? "%.3f" : "%.2f",
                ratio) + " (" + speed + ")";
    }

    static String ms(double x) {
        return String.format(Locale.ROOT, x < 1 ? "%.3f" : x < 100 ? "%.2f" : "%.1f", x);
    }

    static int[] readInts(Path file) throws IOException {
        IntBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] out = new int[b.remaining()];
        b.get(out);
        return out;
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(read(file)));
        return p;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private static Double number(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null ? null : Double.valueOf(v);
    }

    private static int[] ints(String s) {
        return s.isBlank() ? new int[0] : Arrays.stream(s.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
    }

    private static String joined(int[] xs) {
        return String.join(", ", Arrays.stream(xs).mapToObj(Integer::toString).toArray(String[]::new));
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("an unknown CPU");
        } catch (IOException | RuntimeException e) {
            return "an unknown CPU";
        }
    }
}
