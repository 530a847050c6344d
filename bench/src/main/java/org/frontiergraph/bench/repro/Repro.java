package org.frontiergraph.bench.repro;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Shared pieces of the seed-paper reproduction harness: arguments (--out, --quick, --budget-s, --runs), the time
 * budget, median timing after warm-up, CSV files in long form ({@code x,series,value,note}) and a markdown fragment.
 *
 * <p>Every timed configuration has its first answer verified; a wrong answer throws {@link WrongAnswer} and the
 * main exits non-zero (fail loudly). A variant that does not exist yet (UnsupportedVariantException) or a graph that
 * does not fit (GraphTooLargeException) is recorded as a note, not a number.
 */
final class Repro {
    final Path out;
    final boolean quick;
    final long budgetNanos;
    final int runs;
    final long start = System.nanoTime();
    final StringBuilder md = new StringBuilder();
    final Map<String, Csv> csvs = new LinkedHashMap<>();
    final List<String> notes = new ArrayList<>();
    final String paper;
    /** Sections to run (--only a,b), empty for all; the fragment is then named paperNNN-a-b.md. */
    final java.util.Set<String> only = new java.util.LinkedHashSet<>();
    /** Parts to leave out (--skip cpu-apsp: the CPU columns of 004's APSP, already measured). */
    final java.util.Set<String> skip = new java.util.LinkedHashSet<>();

    static final class WrongAnswer extends RuntimeException {
        WrongAnswer(String m) { super(m); }
    }

    @Command(name = "Repro", description = "A seed paper's reproduction: its experiments timed, verified, written as CSV "
            + "and a markdown fragment.")
    static final class Cli implements BenchCli.Command<Cli> {
        private final long defaultBudgetSeconds;
        @Option(names = "--out", paramLabel = "DIR", defaultValue = "${env:OUT:-repro-out}", description = "where the CSV "
                + "files and the fragment go")
        Path out;
        @Option(names = "--quick", description = "at most 3 timed runs, smaller sizes")
        boolean quick;
        @Option(names = "--budget-s", paramLabel = "S", description = "the time budget; what is left is skipped with a note")
        long budgetS;
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--only", paramLabel = "SECTION", split = ",", description = "sections to run (default: all)")
        List<String> only = new ArrayList<>();
        @Option(names = "--skip", paramLabel = "PART", split = ",", description = "parts to leave out (e.g. cpu-apsp)")
        List<String> skip = new ArrayList<>();

        Cli(long defaultBudgetSeconds) {
            this.defaultBudgetSeconds = defaultBudgetSeconds;
        }

        @Override
        public Map<String, String> defaults() {
            return Map.of("--budget-s", Long.toString(defaultBudgetSeconds), "--runs", "5");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            runs.runs();
            return this;
        }
    }

    Repro(String paper, String[] args, long defaultBudgetSeconds) {
        this.paper = paper;
        Cli cli = BenchCli.options(paper, args, () -> new Cli(defaultBudgetSeconds));
        Path o = cli.out;
        boolean q = cli.quick;
        long budget = cli.budgetS;
        int r = cli.runs.runs();
        only.addAll(cli.only);
        skip.addAll(cli.skip);
        out = o;
        quick = q;
        budgetNanos = budget * 1_000_000_000L;
        runs = q ? Math.min(r, 3) : r;
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::finish, "repro-finish"));  // killed by timeout: keep md
        log(paper + ": " + (quick ? "quick" : "full") + " mode, budget " + budget + " s, " + runs
                + " timed runs per configuration, out " + out.toAbsolutePath());
    }

    boolean want(String section) { return only.isEmpty() || only.contains(section); }

    String fragmentName() { return only.isEmpty() ? paper : paper + "-" + String.join("-", only); }

    double elapsedSeconds() { return (System.nanoTime() - start) / 1e9; }

    /** True (and a note written) when the budget is spent: the caller skips what is left of {@code what}. */
    boolean overBudget(String what) {
        if (System.nanoTime() - start < budgetNanos) return false;
        note("skipped for the time budget (" + budgetNanos / 1_000_000_000L + " s): " + what);
        return true;
    }

    void log(String s) {
        System.out.printf(Locale.ROOT, "[%7.1f s] %s%n", elapsedSeconds(), s);
        System.out.flush();
    }

    void note(String s) {
        notes.add(s);
        log("NOTE " + s);
    }

    Csv csv(String name, String xName, String valueName) {
        return csvs.computeIfAbsent(name, n -> new Csv(n, xName, valueName));
    }

    /** One CSV: rows x, series, value, note. */
    final class Csv {
        final String name;
        final StringBuilder text = new StringBuilder();

        Csv(String name, String xName, String valueName) {
            this.name = name;
            text.append(xName).append(',').append("series").append(',').append(valueName).append(",note\n");
        }

        void row(double x, String series, double value, String note) {
            text.append(fmt(x)).append(',').append(series.replace(',', ' ')).append(',').append(Double.isNaN(value) ? "" : fmt(value))
                    .append(',').append(note == null ? "" : note.replace(',', ';').replace('\n', ' ')).append('\n');
            log(name + ": x=" + fmt(x) + " " + series + " = " + (Double.isNaN(value) ? "-" : fmt(value))
                    + (note == null || note.isEmpty() ? "" : " (" + note + ")"));
            flush();
        }

        void flush() {
            write(out.resolve(name + ".csv"), text.toString());
        }
    }

    static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return String.format(Locale.ROOT, "%.4g", v);
    }

    static void write(Path p, String s) {
        try {
            Files.writeString(p, s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean finished;

    synchronized void finish() {
        if (finished) return;
        finished = true;
        StringBuilder f = new StringBuilder();
        f.append("<!-- fragment of ").append(fragmentName()).append(", ").append(Instant.now()).append(" -->\n");
        f.append("Run: ").append(quick ? "quick" : "full").append(" mode, ").append(runs)
                .append(" timed runs per configuration (median), ")
                .append(String.format(Locale.ROOT, "%.0f s", elapsedSeconds())).append(" in all.\n\n");
        f.append(machine()).append("\n\n");
        f.append(md);
        if (!notes.isEmpty()) {
            f.append("\nNotes:\n");
            for (String n : notes) f.append("- ").append(n).append('\n');
        }
        write(out.resolve(fragmentName() + ".md"), f.toString());
        csvs.values().forEach(Csv::flush);
        log("wrote " + out.resolve(fragmentName() + ".md") + " and " + csvs.keySet());
    }

    // ---------------------------------------------------------------------------------------------- timing

    /** One timed query: its result (for verification) and its compute time. */
    record Run<T>(T result, Timing timing) {}

    /**
     * Times {@code body}: with {@code warm} one untimed warm-up run on {@code sources[0]} first; then {@code runs}
     * timed runs on {@code sources[1..]} (cycling). The first answer and the last timed answer are verified by
     * {@code check}. Returns the median compute time in ms, or NaN with a note for a variant that does not exist or
     * a graph that does not fit.
     */
    <T> double medianMs(String what, int[] sources, int runs, boolean warm, IntFunction<Run<T>> body, Checker<T> check) {
        try {
            double[] ms = new double[runs];
            int k = 0;
            if (warm) {
                Run<T> first = body.apply(sources[0]);
                verify(what, check, sources[0], first.result());
                k = 1;
            }
            for (int i = 0; i < runs; i++) {
                int s = sources[(k + i) % sources.length];
                Run<T> r = body.apply(s);
                ms[i] = r.timing().computeNanos() / 1e6;
                if (i == 0 && !warm || i == runs - 1) verify(what, check, s, r.result());
            }
            Arrays.sort(ms);
            return runs % 2 == 1 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
        } catch (UnsupportedVariantException e) {
            note(what + ": variant not available (" + oneLine(e) + ")");
            return Double.NaN;
        } catch (GraphTooLargeException e) {
            note(what + ": does not fit (" + oneLine(e) + ")");
            return Double.NaN;
        } catch (WrongAnswer e) {
            failures++;
            note("**" + oneLine(e) + "** (not timed; the run exits 1)");
            return Double.NaN;
        } catch (RuntimeException e) {
            failures++;
            note("**" + what + " FAILED: " + e.getClass().getSimpleName() + ": " + oneLine(e) + "** (the run exits 1)");
            e.printStackTrace();
            return Double.NaN;
        }
    }

    /** Wrong answers and failures so far: the main exits 1 when there are any. */
    int failures;

    void exitIfFailed() {
        if (failures > 0) {
            log(failures + " configuration(s) gave a wrong answer or failed: exit 1");
            finish();
            System.exit(1);
        }
    }

    private <T> void verify(String what, Checker<T> check, int source, T result) {
        Verification v = check.check(source, result);
        if (!v.ok()) throw new WrongAnswer(what + ": WRONG ANSWER from source " + source + ": " + v.message());
    }

    interface Checker<T> {
        Verification check(int source, T result);
    }

    static String oneLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        m = m.replace('\n', ' ');
        return m.length() > 300 ? m.substring(0, 300) + "..." : m;
    }

    /** {@code count} seeded sources of non-zero out-degree (vertex 0 if none). */
    static int[] sources(CsrGraph g, int count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] s = new int[count];
        for (int i = 0; i < count; i++) {
            int v = 0;
            for (int t = 0; t < 1000; t++) {
                int c = r.nextInt(g.vertexCount());
                if (g.degree(c) > 0) {
                    v = c;
                    break;
                }
            }
            s[i] = v;
        }
        return s;
    }

    static String ms(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, v < 10 ? "%.3f" : "%.1f", v);
    }

    static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "n/a" : String.format(Locale.ROOT, "%.2fx", a / b);
    }

    String gpu = "none";

    String machine() {
        Runtime rt = Runtime.getRuntime();
        String cpu = "unknown";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        } catch (IOException | RuntimeException e) {
            // keep unknown
        }
        return "- GPU: " + gpu + "\n- CPU: " + cpu + ", " + rt.availableProcessors() + " cores available to the JVM\n"
                + "- JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", max heap " + (rt.maxMemory() >> 30) + " GiB";
    }

    /** Runs main bodies with the exit code contract: 0 ok, 1 wrong answer or crash. */
    /** One paper's experiments, given the CPU engine and the GPU backend (null without a GPU). */
    interface Experiments {
        void run(Repro r, ComputeBackend cpu, GpuBackend gpu) throws Exception;
    }

    /** The main of every paper: open the backends, run, write the outputs, exit non-zero on a wrong answer. */
    static void main(String paper, String[] args, int budgetSeconds, Experiments experiments) {
        Repro r = new Repro(paper, args, budgetSeconds);
        try {
            java.util.Optional<String> why = GpuBackend.unavailableReason();
            try (ComputeBackend cpu = new org.frontiergraph.kernels.cpu.CpuBackend();
                 GpuBackend gpu = why.isPresent() ? null : Backends.gpu()) {
                if (gpu == null) r.note("no GPU: " + why.get() + "; CPU columns only");
                else r.gpu = gpu.device();
                r.log("GPU " + r.gpu);
                experiments.run(r, cpu, gpu);
            }
            r.finish();
            r.exitIfFailed();
        } catch (Throwable t) {
            r.finish();
            exitOn(t);
        }
    }

    static void exitOn(Throwable t) {
        t.printStackTrace();
        System.out.flush();
        System.exit(1);
    }
}
