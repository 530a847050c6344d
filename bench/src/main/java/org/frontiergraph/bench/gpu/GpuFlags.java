package org.frontiergraph.bench.gpu;

import org.frontiergraph.kernels.gpu.GpuSettings;

/**
 * The GPU engine's switches for a benchmark's own {@code main}, from the JVM options of the worker's names
 * ({@code -Dfrontier.gpu.lanes=false}, {@code -Dfrontier.gpu.edit-phases=true}, ...; docs/operations.md, "GPU engine
 * tuning"), each absent one at its default. The engine itself reads no system property: it is given these.
 */
public final class GpuFlags {
    private GpuFlags() {}

    /** The settings the JVM options name, defaults elsewhere. */
    public static GpuSettings settings() {
        GpuSettings d = GpuSettings.DEFAULTS;
        return new GpuSettings(
                Integer.getInteger("frontier.gpu.device", d.device()),
                Boolean.parseBoolean(System.getProperty("frontier.gpu.lanes", String.valueOf(d.lanes()))),
                Boolean.parseBoolean(System.getProperty("frontier.gpu.edits-on-device", String.valueOf(d.editsOnDevice()))),
                Integer.getInteger("frontier.gpu.slack-min", d.slackMin()),
                Integer.getInteger("frontier.gpu.slack-shift", d.slackShift()),
                Boolean.parseBoolean(System.getProperty("frontier.gpu.edit-phases", String.valueOf(d.editPhases()))),
                GpuSettings.LiveBound.parse(System.getProperty("frontier.gpu.sssp-live-bound", "auto")));
    }
}
