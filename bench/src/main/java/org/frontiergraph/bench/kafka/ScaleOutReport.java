package org.frontiergraph.bench.kafka;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** ScaleOutBench's markdown: throughput per phase and their ratio, partitions and graphs per worker, CPU per process. */
final class ScaleOutReport {
    private ScaleOutReport() {}

    static String markdown(ScaleOutOptions o, ZonedDateTime started, double seconds, List<String> ids, int partitions,
                           ScaleOutLoad.Outcome probe, ScaleOutLoad.Outcome one, ScaleOutBench.Placement onePlace,
                           ScaleOutLoad.Outcome many, ScaleOutBench.Placement manyPlace, List<String> failures) {
        StringBuilder b = new StringBuilder(ScaleOutBench.header(o, started, seconds)).append('\n');
        b.append("| phase | answers in the measured window | queries/s | p50 ms | p99 ms | answers checked | wrong or missing |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (ScaleOutLoad.Outcome r : probe == null ? List.of(one, many) : List.of(probe, one, many)) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %.2f | %.2f | %s | %,d |%n", r.label(), r.answered(), r.perSecond(),
                    r.p50Ms(), r.p99Ms(), r == probe ? "- (not answers)" : String.format(Locale.ROOT, "%,d", r.checked()), r.failed()));
        }
        double ratio = many.perSecond() / one.perSecond();
        b.append(String.format(Locale.ROOT, "%n**%d workers / 1 worker: %.2fx** (target 1.8x for 2)%n%n", o.workers(), ratio));

        Map<Integer, List<String>> graphsOf = new TreeMap<>();
        for (int p = 0; p < partitions; p++) graphsOf.put(p, new ArrayList<>());
        for (String id : ids) graphsOf.computeIfAbsent(ScaleOutBench.partitionOf(id, partitions), p -> new ArrayList<>()).add(id);
        Map<Integer, String> ownerOne = owners(onePlace), ownerMany = owners(manyPlace);
        b.append("| partition | graphs | worker (1 worker) | worker (").append(o.workers()).append(" workers) | answers (1 worker) | answers (")
                .append(o.workers()).append(" workers) |\n|---:|---|---|---|---:|---:|\n");
        for (var e : graphsOf.entrySet()) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %,d | %,d |%n", e.getKey(),
                    e.getValue().isEmpty() ? "-" : e.getValue().size() + ": " + String.join(", ", e.getValue()),
                    ownerOne.getOrDefault(e.getKey(), "-"), ownerMany.getOrDefault(e.getKey(), "-"),
                    answers(one, ids, e.getValue()), answers(many, ids, e.getValue())));
        }
        b.append('\n');
        b.append("| process | partitions (").append(o.workers()).append(" workers) | graphs | answers (").append(o.workers())
                .append(" workers) | CPU cores used (1 worker) | CPU cores used (").append(o.workers()).append(" workers) |\n")
                .append("|---|---|---:|---:|---:|---:|\n");
        int busiest = 0;
        for (var e : manyPlace.cpuCores().entrySet()) {
            List<Integer> parts = manyPlace.partitions().get(e.getKey());
            List<String> held = new ArrayList<>();
            if (parts != null) for (int p : parts) held.addAll(graphsOf.getOrDefault(p, List.of()));
            busiest = Math.max(busiest, held.size());
            Double before = onePlace.cpuCores().get(e.getKey());
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f |%n", e.getKey(), parts == null ? "-" : parts,
                    parts == null ? "-" : Integer.toString(held.size()), parts == null ? "-" : String.format(Locale.ROOT, "%,d", answers(many, ids, held)),
                    before == null ? "-" : String.format(Locale.ROOT, "%.2f", before), e.getValue()));
        }
        if (busiest > 0) {
            b.append(String.format(Locale.ROOT, "%nBalance: the busiest of %d workers holds %d of %d graphs; with the same load on every graph"
                    + " this assignment allows at most %.2fx.%n", o.workers(), busiest, ids.size(), ids.size() / (double) busiest));
        }
        b.append('\n').append(failures.isEmpty() ? "Every answer verified: status OK, the version loaded, the backend asked,"
                + " reached count and max hops or max distance equal to the CPU engine's.\n"
                : "**FAILURES**\n\n- " + String.join("\n- ", failures) + "\n");
        return b.toString();
    }

    /** Partition to the worker that held it. */
    private static Map<Integer, String> owners(ScaleOutBench.Placement place) {
        Map<Integer, String> out = new TreeMap<>();
        place.partitions().forEach((worker, parts) -> parts.forEach(p -> out.put(p, worker)));
        return out;
    }

    /** Answers in a phase's measured window to queries on {@code graphs}. */
    private static long answers(ScaleOutLoad.Outcome r, List<String> ids, List<String> graphs) {
        long n = 0;
        for (String g : graphs) n += r.perGraph()[ids.indexOf(g)];
        return n;
    }
}
