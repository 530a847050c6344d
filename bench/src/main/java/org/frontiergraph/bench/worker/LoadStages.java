package org.frontiergraph.bench.worker;

import java.util.List;
import java.util.Locale;
import org.frontiergraph.worker.registry.GraphRegistry;

/** {@link ScaleBench}'s table of where each load's time went, stage by stage. */
final class LoadStages {
    private LoadStages() {}

    static String markdown(List<ScaleBench.Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("Load stages: publish = the client's chunks handed to the producer and acknowledged (the worker reads them"
                + " meanwhile); first chunk to LOADED = the load above; then the worker's steps after the last chunk arrived"
                + " (GraphRegistry.LoadTimes): the chunks still being decoded and counted by the ingest threads finished and"
                + " checked (assembled), the CSR laid out from the counts (built: placement, row sort and merge, edge ids), the"
                + " engine's copy made (resident: the device upload on the GPU).\n\n");
        b.append("| graph | edges | publish s | publish M edges/s | first chunk to LOADED s | M edges/s | assembled ms | built ms"
                + " | resident ms |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ScaleBench.Row r : rows) {
            GraphRegistry.LoadTimes t = r.stages();
            b.append(String.format(Locale.ROOT, "| %s | %,d | %.2f | %.1f | %.2f | %.1f | %s | %s | %s |%n", r.graph(), r.edges(),
                    r.publishS(), r.edges() / r.publishS() / 1e6, r.loadS(), r.edgesPerS() / 1e6,
                    t == null ? "-" : ms(t.assembledMs()), t == null ? "-" : ms(t.builtMs()), t == null ? "-" : ms(t.residentMs())));
        }
        return b.toString();
    }

    private static String ms(double ms) {
        return String.format(Locale.ROOT, "%.0f", ms);
    }
}
