package org.frontiergraph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every command line the documentation and the deploy scripts give a benchmark parses into its options
 * ({@link BenchCli}): the commands in docs/benchmarks.md (code blocks and inline code), the defaults of
 * deploy/gpu/run.sh and bundle-bench.sh (with the {@code --out} and {@code --command} bundle-bench.sh adds),
 * PeerBench's steps as deploy/gpu/peers.sh runs them and the papers' options of docs/reproduction.md. A flag renamed
 * or dropped in a benchmark but not in the documents fails here. Placeholders of the documents ({@code N},
 * {@code R}) stand for 1, alternatives ({@code 60000|87000}) for the first; {@code [--option value]} is parsed as
 * given, {@code [options]} left out.
 */
class BenchCommandLinesTest {
    private static final Path REPO = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolve("..").normalize();

    /** Each benchmark by the name its commands use, and its picocli command class. */
    private static final Map<String, String> CLIS = new LinkedHashMap<>();

    static {
        String b = "org.frontiergraph.bench.";
        CLIS.put("BfsSummariesBench", b + "BfsSummariesBench$Cli");
        CLIS.put("CpuVsJGraphT", b + "CpuVsJGraphT$Cli");
        CLIS.put("GpuBench", b + "gpu.GpuBench$Cli");
        CLIS.put("LanesBench", b + "gpu.LanesBench$Cli");
        CLIS.put("UpdateBench", b + "gpu.UpdateBench$Cli");
        CLIS.put("CcCutBench", b + "incremental.CcCutBench$Cli");
        CLIS.put("ManyTreesBench", b + "incremental.ManyTreesBench$Cli");
        CLIS.put("RepairBench", b + "incremental.RepairBench$Cli");
        CLIS.put("AnswerDeliveryBench", b + "kafka.AnswerDeliveryBench$Cli");
        CLIS.put("RebuildBench", b + "kafka.RebuildBench$Cli");
        CLIS.put("KafkaBench", b + "kafka.BenchOptions$Cli");
        CLIS.put("ScaleOutBench", b + "kafka.ScaleOutOptions$Cli");
        CLIS.put("SubscriptionBench", b + "kafka.SubscriptionBench$Cli");
        CLIS.put("PeerBench", b + "peers.PeerBench$Cli");
        CLIS.put("Plots", b + "repro.Plots$Cli");
        CLIS.put("IngestBench", b + "worker.IngestBench$Cli");
        CLIS.put("QueryPathBench", b + "worker.QueryPathBench$Cli");
        CLIS.put("ResultCodecBench", b + "worker.ResultCodecBench$Cli");
        CLIS.put("ScaleBench", b + "worker.ScaleBench$Cli");
        CLIS.put("UpdatePathBench", b + "worker.UpdatePathBench$Cli");
    }

    /** Benchmarks docs/benchmarks.md gives a command of (the test fails when it finds none of one). */
    private static final Set<String> DOCUMENTED = Set.of("AnswerDeliveryBench", "BfsSummariesBench", "CcCutBench",
            "GpuBench", "IngestBench", "KafkaBench", "LanesBench", "ManyTreesBench", "QueryPathBench", "RebuildBench", "RepairBench",
            "ResultCodecBench", "ScaleBench", "ScaleOutBench", "SubscriptionBench", "UpdateBench", "UpdatePathBench");

    private static final Pattern BENCH = Pattern.compile("(?<![\\w.$])(?:org\\.frontiergraph\\.bench\\.(?:\\w+\\.)*)?("
            + String.join("|", CLIS.keySet()) + ")(?=\\s|$)");
    private static final Pattern TOKEN = Pattern.compile("\"[^\"]*\"|'[^']*'|\\S+");
    private static final Set<String> STOP = Set.of("java", "|", "||", "&&", ";", ">", ">>", "2>&1", "-cp", "#");

    private static BenchCli.Command<?> cli(String bench) throws ReflectiveOperationException {
        Constructor<?> c = Class.forName(CLIS.get(bench)).getDeclaredConstructor();
        c.setAccessible(true);
        return (BenchCli.Command<?>) c.newInstance();
    }

    private static Object parse(String bench, List<String> args) throws ReflectiveOperationException {
        try {
            return BenchCli.parse(cli(bench), args.toArray(String[]::new));
        } catch (BenchCli.UsageException e) {
            throw new AssertionError(bench + " " + String.join(" ", args) + ": " + e.getMessage(), e);
        }
    }

    /** The arguments after each benchmark name in {@code code}, placeholders filled in. */
    private static void commands(String code, Map<String, List<List<String>>> out) {
        Matcher m = BENCH.matcher(code);
        while (m.find()) {
            List<String> args = new ArrayList<>();
            Matcher t = TOKEN.matcher(code.substring(m.end()));
            while (t.find()) {
                String s = t.group();
                if (STOP.contains(s) || s.startsWith("`") || BENCH.matcher(s).find()) break;
                s = s.replaceAll("^\\[|]$", "");
                if (s.startsWith("\"") || s.startsWith("'")) s = s.substring(1, s.length() - 1);
                if (s.equals("options") || s.equals("...") || s.isEmpty()) continue;
                if (s.contains("|") && !s.startsWith("-")) s = s.substring(0, s.indexOf('|'));   // a|b: either
                args.add(s.matches("[A-Z]") ? "1" : s);
            }
            if (!args.isEmpty()) out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(args);   // else a name only
        }
    }

    /** docs/benchmarks.md's commands: fenced and indented code lines (continuations joined) and inline code. */
    static Map<String, List<List<String>>> documented() throws IOException {
        Map<String, List<List<String>>> out = new TreeMap<>();
        StringBuilder prose = new StringBuilder();
        boolean fenced = false;
        String pending = "";
        for (String line : Files.readAllLines(REPO.resolve("docs/benchmarks.md"))) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced || line.startsWith("    ") || !pending.isEmpty()) {
                if (line.endsWith("\\")) {
                    pending += line.substring(0, line.length() - 1) + " ";
                } else {
                    commands(pending + line, out);
                    pending = "";
                }
            } else {
                prose.append(line).append('\n');
            }
        }
        Matcher inline = Pattern.compile("`([^`]+)`").matcher(prose);
        while (inline.find()) commands(inline.group(1).replace("\\\n", " ").replace('\n', ' '), out);
        return out;
    }

    @Test
    void everyCommandOfTheBenchmarksDocumentParses() throws Exception {
        Map<String, List<List<String>>> commands = documented();
        assertEquals(new TreeSet<>(DOCUMENTED), new TreeSet<>(commands.keySet()), "benchmarks with a command in docs/benchmarks.md");
        int n = 0;
        for (var e : commands.entrySet()) {
            for (List<String> args : e.getValue()) {
                assertNotNull(parse(e.getKey(), args));
                n++;
            }
        }
        assertTrue(n >= 60, n + " commands");
    }

    @Test
    void theDeployScriptsDefaultsParse() throws Exception {
        String bundle = Files.readString(REPO.resolve("deploy/gpu/bundle-bench.sh"));
        Matcher m = Pattern.compile("main=org\\.frontiergraph\\.bench\\.[\\w.]*\\.(\\w+); prefix=\\w+;(?: heap=\\w+)?\\s*defaults=\"([^\"]*)\"")
                .matcher(bundle);
        Set<String> seen = new TreeSet<>();
        while (m.find()) {
            List<String> args = new ArrayList<>(List.of(m.group(2).split("\\s+")));
            args.addAll(List.of("--out", "/tmp/out.md", "--command", "deploy/gpu/run.sh with " + m.group(2)));
            assertNotNull(parse(m.group(1), args));
            seen.add(m.group(1));
        }
        assertEquals(Set.of("IngestBench", "KafkaBench", "RepairBench", "SubscriptionBench", "QueryPathBench", "ScaleBench",
                "ScaleOutBench"), seen);

        String run = Files.readString(REPO.resolve("deploy/gpu/run.sh"));
        Matcher r = Pattern.compile("org\\.frontiergraph\\.bench\\.[\\w.]*\\.(\\w+) \\$\\{\\w+:-([^}]*)}").matcher(run);
        seen.clear();
        while (r.find()) {
            assertNotNull(parse(r.group(1), List.of(r.group(2).trim().split("\\s+"))));
            seen.add(r.group(1));
        }
        assertEquals(Set.of("GpuBench", "LanesBench", "UpdateBench"), seen);
        Matcher repair = Pattern.compile("REPAIR_ARGS:-([^}]*)}").matcher(run);
        assertTrue(repair.find());
        List<String> args = new ArrayList<>(List.of(repair.group(1).split("\\s+")));
        args.addAll(List.of("--out", "/tmp/repair.md", "--command", "deploy/gpu/run.sh repair"));
        assertNotNull(parse("RepairBench", args));
    }

    @Test
    void peerBenchParsesBothStepsAsPeersShRunsThem() throws Exception {
        String peers = Files.readString(REPO.resolve("deploy/gpu/peers.sh")).replace("\\\n", " ");
        Map<String, String> values = Map.of("work", "/tmp/work", "graphs", "ny,kron22", "sources", "16", "check", "2",
                "engine", "cpu", "out", "/tmp/out", "trials", "4");
        Matcher m = Pattern.compile("\"\\$\\{jvm\\[@]}\" (frontier|compare) ([^\\n]*)").matcher(peers);
        Set<String> steps = new TreeSet<>();
        while (m.find()) {
            List<String> args = new ArrayList<>(List.of(m.group(1)));
            Matcher t = TOKEN.matcher(m.group(2));
            while (t.find()) {
                String s = t.group().replaceAll("^\"|\"$", "");
                Matcher v = Pattern.compile("^\\$(\\w+)").matcher(s);
                args.add(v.find() ? values.getOrDefault(v.group(1), "x") + s.substring(v.end()) : s);
            }
            assertNotNull(parse("PeerBench", args));
            steps.add(m.group(1));
        }
        assertEquals(Set.of("frontier", "compare"), steps);
        assertThrows(BenchCli.UsageException.class, () -> BenchCli.parse(cli("PeerBench"), new String[] {"compare"}),
                "--work is required");
        assertThrows(BenchCli.UsageException.class, () -> BenchCli.parse(cli("PeerBench"), new String[0]), "no step");
    }

    @Test
    void thePapersOptionsOfTheReproductionDocumentParse() throws Exception {
        Constructor<?> c = Class.forName("org.frontiergraph.bench.repro.Repro$Cli").getDeclaredConstructor(long.class);
        c.setAccessible(true);
        Matcher m = Pattern.compile("reproduce\\.sh repro \\d{3}([^`#\\n]*)").matcher(Files.readString(REPO.resolve("docs/reproduction.md")));
        int n = 0;
        while (m.find()) {
            List<String> args = new ArrayList<>(List.of("--out", "/tmp/repro"));
            for (String s : m.group(1).trim().split("\\s+")) if (!s.isEmpty()) args.add(s);
            assertNotNull(BenchCli.parse((BenchCli.Command<?>) c.newInstance(120L), args.toArray(String[]::new)), args::toString);
            n++;
        }
        assertTrue(n >= 3, n + " commands");
    }

    @Test
    void everyBenchmarkAnswersHelpAndRefusesAnUnknownOption() throws Exception {
        for (String bench : CLIS.keySet()) {
            if (!Set.of("PeerBench", "RebuildBench").contains(bench)) {
                assertNotNull(parse(bench, List.of()), bench + " alone: its defaults");   // the two need --work, --graph
            }
            BenchCli.UsageException help = assertThrows(BenchCli.UsageException.class,
                    () -> BenchCli.parse(cli(bench), new String[] {"--help"}), bench);
            assertTrue(help.help(), bench);
            String usage = BenchCli.usage(cli(bench));
            assertTrue(usage.contains("--help"), usage);
            BenchCli.UsageException unknown = assertThrows(BenchCli.UsageException.class,
                    () -> BenchCli.parse(cli(bench), new String[] {"--nonsense", "1"}), bench);
            assertFalse(unknown.help());
            assertTrue(unknown.getMessage().contains("unknown option '--nonsense'"), bench + ": " + unknown.getMessage());
        }
    }

    @Test
    void optionsLandWhereTheyBelong() throws Exception {
        Object kafka = parse("KafkaBench", List.of("--graphs", "NY, kron10", "--backend", "CPU", "--burst", "1_000", "--out", "a.md",
                "--out", "b.md"));
        String k = kafka.toString();
        assertTrue(k.contains("graphs=[ny, kron10]") && k.contains("backend=cpu") && k.contains("burst=1000")
                && k.contains("out=b.md") && k.contains("command=KafkaBench --graphs"), k);
        String scale = parse("ScaleBench", List.of("--worker", "frontier.a=1", "--worker", "frontier.b=2", "--producer", "linger.ms=0"))
                .toString();
        assertTrue(scale.contains("worker={frontier.a=1, frontier.b=2}") || scale.contains("worker={frontier.b=2, frontier.a=1}"), scale);
        assertTrue(scale.contains("backend=gpu") && scale.contains("graphs=[kron22, kron24, kron25, kron26]"), scale);
        String repair = parse("RepairBench", List.of("--graphs", "grid24")).toString();
        assertTrue(repair.contains("backend=auto") && repair.contains("parts=[repair, device]")
                && repair.contains("command=RepairBench --graphs grid24"), repair);
        String rebuild = parse("RebuildBench", List.of("--graph", "g.gr", "--rows", "1_000:on,0:off", "--worker", "a.b=1", "--worker",
                "c=2")).toString();
        assertTrue(rebuild.contains("rows=[Spec[updates=1000, checkpoints=true], Spec[updates=0, checkpoints=false]]")
                && rebuild.contains("a.b=1") && rebuild.contains("c=2") && rebuild.contains("seed=29"), rebuild);
        String updates = parse("RebuildBench", List.of("--graph", "g.gr", "--updates", "0,5")).toString();
        assertTrue(updates.contains("rows=[Spec[updates=0, checkpoints=false], Spec[updates=0, checkpoints=true], "
                + "Spec[updates=5, checkpoints=false], Spec[updates=5, checkpoints=true]]"), updates);
        assertThrows(BenchCli.UsageException.class, () -> BenchCli.parse(cli("RebuildBench"), new String[0]), "--graph is required");
        assertThrows(BenchCli.UsageException.class,
                () -> BenchCli.parse(cli("RebuildBench"), new String[] {"--graph", "g", "--rows", "1:yes"}));
        String ingest = parse("IngestBench", List.of("--producer", "linger.ms=0", "--no-kafka", "--codecs", "zstd")).toString();
        assertTrue(ingest.contains("producer={linger.ms=0}") && ingest.contains("kafka=false") && ingest.contains("codecs=[zstd]")
                && ingest.contains("graphs=[kron18, kron20, ny]") && ingest.contains("backend=cpu") && ingest.contains("runs=3"), ingest);
        assertThrows(BenchCli.UsageException.class, () -> BenchCli.parse(cli("QueryPathBench"), new String[] {"--runs", "x"}));
        assertThrows(BenchCli.UsageException.class, () -> BenchCli.parse(cli("GpuBench"), new String[] {"--graphs"}));
    }
}
