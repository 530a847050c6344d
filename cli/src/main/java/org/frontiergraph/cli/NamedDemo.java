package org.frontiergraph.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * The demo's named part, through the CLI's own commands (as a user types them, run in this process): loads a small
 * road network whose junctions are named ({@code load --names}), follows SSSP from a junction by name
 * ({@code subscribe}), closes a road and opens a new junction by name ({@code update --wait}), sees the push name the
 * junctions that changed, asks again by name ({@code query --format csv}), checks every distance against Dijkstra on
 * the same edits made to the integer graph and mapped through the names, and drops the graph ({@code graphs drop}),
 * which ends the subscription.
 */
final class NamedDemo {
    static final String GRAPH = "junctions";
    static final String SOURCE = "Main & 1st";
    private static final long WAIT_MS = 60_000;

    private NamedDemo() {}

    /** What one command printed and its exit status. */
    private record Run(int status, String out, String err) {}

    static boolean run(String bootstrap, PrintStream out) throws Exception {
        Path file = Files.createTempFile("junctions", ".tsv");
        try (InputStream in = NamedDemo.class.getResourceAsStream("/demo/junctions.tsv")) {
            if (in == null) throw new IOException("demo graph /demo/junctions.tsv missing from the classpath");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        try {
            return run(bootstrap, file, out);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static boolean run(String bootstrap, Path file, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "%nnamed junctions, through the CLI (a road network whose vertices are names):%n");
        Run load = cli(bootstrap, out, "load", "--graph", GRAPH, "--names", "--undirected", file.toString());
        if (load.status() != 0) return failed(out, "load", load);

        ByteArrayOutputStream pushes = new ByteArrayOutputStream();
        out.printf(Locale.ROOT, "$ frontier subscribe --graph %s --algorithm sssp --source '%s'   (in the background)%n", GRAPH, SOURCE);
        CompletableFuture<Integer> subscriber = CompletableFuture.supplyAsync(() -> FrontierCli.run(new String[] {"subscribe",
                "--graph", GRAPH, "--algorithm", "sssp", "--source", SOURCE, "--id", "demo-junctions", "--bootstrap", bootstrap},
                new PrintStream(pushes, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        if (!awaitLines(pushes, 1)) return failed(out, "subscribe (no INITIAL push)", new Run(-1, pushes.toString(StandardCharsets.UTF_8), ""));

        Run update = cli(bootstrap, out, "update", "--graph", GRAPH, "--reweight", "Main & 2nd", "Main & 3rd", "600",
                "--add-vertex", "Harbor Gate", "--add", "Pine & 4th", "Harbor Gate", "45", "--wait");
        if (update.status() != 0) return failed(out, "update", update);
        // the two records (the re-weight, the new junction) are pushed together or one after the other
        if (!awaitText(pushes, "\"Harbor Gate\"")) {
            return failed(out, "subscribe (no push naming the new junction)", new Run(-1, pushes.toString(StandardCharsets.UTF_8), ""));
        }
        String[] lines = pushes.toString(StandardCharsets.UTF_8).split("\n");
        boolean pushOk = lines.length > 1;
        for (int i = 1; i < lines.length; i++) {
            String push = lines[i];
            int names = push.indexOf("\"names\":");
            out.println("push: " + push.substring(0, Math.min(push.length(), 110)) + " ... "
                    + (names < 0 ? "(no names)" : push.substring(names, Math.min(push.length(), names + 150)) + " ..."));
            pushOk &= push.contains("\"reason\":\"UPDATE\"") && push.contains("\"delta\":true") && names >= 0;
        }

        Run query = cli(bootstrap, out, "query", "--graph", GRAPH, "--algorithm", "sssp", "--source", SOURCE, "--format", "csv");
        if (query.status() != 0) return failed(out, "query", query);
        String verdict = verify(file, query.out());
        Run drop = cli(bootstrap, out, "graphs", "drop", GRAPH);
        boolean ended = subscriber.get(WAIT_MS, TimeUnit.MILLISECONDS) == 1   // its graph is gone: END, UNKNOWN_GRAPH
                && pushes.toString(StandardCharsets.UTF_8).contains("\"reason\":\"END\"");
        boolean ok = pushOk && verdict == null && drop.status() == 0 && ended;
        out.printf(Locale.ROOT, "named junctions: push names the changed junctions %s, distances by name = Dijkstra on the "
                + "edited integer graph %s, drop ends the subscription %s%n", pushOk ? "yes" : "NO",
                verdict == null ? "yes" : "NO: " + verdict, ended ? "yes" : "NO");
        return ok;
    }

    /**
     * Why the CSV answer differs from the reference: Dijkstra from {@link #SOURCE} on the file's graph with the demo's
     * edits, by name; null when every junction's distance matches.
     */
    static String verify(Path file, String csv) throws IOException {
        NamedGraphFile.Named g = NamedGraphFile.readEdgeList(file, true);
        List<String> names = new ArrayList<>(g.names());
        EdgeList edges = new EdgeList(names.size() + 1, false);
        int a = names.indexOf("Main & 2nd"), b = names.indexOf("Main & 3rd");
        for (int i = 0; i < g.edges().size(); i++) {
            int u = g.edges().source(i), v = g.edges().target(i);
            boolean closed = (u == a && v == b) || (u == b && v == a);
            edges.add(u, v, closed ? 600 : g.edges().weight(i));
        }
        names.add("Harbor Gate");
        edges.add(names.indexOf("Pine & 4th"), names.size() - 1, 45);
        SsspResult reference = DijkstraReference.run(GraphBuilder.build(edges), names.indexOf(SOURCE));
        Map<String, Double> answered = new HashMap<>();
        for (String line : csv.split("\n")) {
            if (line.isBlank() || line.startsWith("vertex,")) continue;
            String[] f = line.split(",");
            answered.put(f[0], f[1].isEmpty() ? Double.POSITIVE_INFINITY : Double.parseDouble(f[1]));
        }
        if (answered.size() != names.size()) return answered.size() + " junctions answered, " + names.size() + " expected";
        for (int v = 0; v < names.size(); v++) {
            Double d = answered.get(names.get(v));
            if (d == null || d != reference.distances()[v]) {
                return "'" + names.get(v) + "': " + d + ", Dijkstra " + reference.distances()[v];
            }
        }
        return null;
    }

    /** Runs one command as {@code ./frontier} would, printing it and its output (the last lines) to {@code out}. */
    private static Run cli(String bootstrap, PrintStream out, String... argv) {
        StringBuilder shown = new StringBuilder("$ frontier");
        for (String s : argv) shown.append(' ').append(s.contains(" ") || s.contains("&") ? "'" + s + "'" : s);
        out.println(shown.toString().replace(System.getProperty("java.io.tmpdir"), "").replaceAll("/?junctions\\d+\\.tsv", "junctions.tsv"));
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        String[] args = new String[argv.length + 2];
        System.arraycopy(argv, 0, args, 0, argv.length);
        args[argv.length] = "--bootstrap";
        args[argv.length + 1] = bootstrap;
        int rc = FrontierCli.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        Run r = new Run(rc, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        String[] lines = r.out().split("\n");
        for (int i = 0; i < Math.min(lines.length, 6); i++) if (!lines[i].isBlank()) out.println("  " + lines[i]);
        if (lines.length > 6) out.println("  ... (" + (lines.length - 6) + " more lines)");
        return r;
    }

    private static boolean failed(PrintStream out, String what, Run r) {
        out.println("named junctions: " + what + " failed (exit " + r.status() + "): " + r.err().strip() + "  [UNEXPECTED]");
        return false;
    }

    /** Waits until {@code out} holds {@code n} lines; false after {@link #WAIT_MS}. */
    private static boolean awaitLines(ByteArrayOutputStream out, int n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (out.toString(StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count() < n) {
            if (System.currentTimeMillis() > deadline) return false;
            Thread.sleep(50);
        }
        return true;
    }

    /** Waits until {@code out} holds a whole line with {@code text}; false after {@link #WAIT_MS}. */
    private static boolean awaitText(ByteArrayOutputStream out, String text) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (true) {
            String s = out.toString(StandardCharsets.UTF_8);
            int at = s.indexOf(text);
            if (at >= 0 && s.indexOf('\n', at) >= 0) return true;
            if (System.currentTimeMillis() > deadline) return false;
            Thread.sleep(50);
        }
    }
}
