package org.frontiergraph.kernels.gpu;

import java.util.Locale;

/**
 * The GPU engine's tuning switches, given to {@link GpuBackend#open} (the worker fills them from its configuration,
 * {@code frontier.gpu.*}; benchmarks and tests take {@link #DEFAULTS} or build their own). Read through
 * {@link CudaContext#settings()} by the classes they tune.
 *
 * @param device        the CUDA device ordinal the engine opens
 * @param lanes         each resident graph on its own CUDA stream and lock ({@link GpuLane}); false: one for all
 * @param editsOnDevice structural updates applied on the device copy as edits of a slack-form CSR
 *                      ({@link SlackCopy}); false: merged on the host and followed by the compact copy
 * @param slackMin      free slots a row of the slack form gets at least when laid out
 * @param slackShift    and {@code d >> slackShift} for a row of d arcs (3: an eighth)
 * @param editPhases    every device edit prints the time of its phases to stderr (benchmarks)
 * @param ssspLiveBound whether asynchronous SSSP on a slack-form copy bounds each row by its live count
 */
public record GpuSettings(int device, boolean lanes, boolean editsOnDevice, int slackMin, int slackShift,
                          boolean editPhases, LiveBound ssspLiveBound) {
    /** The defaults: device 0, lanes on, edits on the device, room max(4, d/8), no phase timing, live bound auto. */
    public static final GpuSettings DEFAULTS = new GpuSettings(0, true, true, 4, 3, false, LiveBound.AUTO);

    public GpuSettings {
        if (device < 0) throw new IllegalArgumentException("frontier.gpu.device must be >= 0, not " + device);
        if (slackMin < 0) throw new IllegalArgumentException("frontier.gpu.slack-min must be >= 0, not " + slackMin);
        if (slackShift < 0 || slackShift > 30) {
            throw new IllegalArgumentException("frontier.gpu.slack-shift must be within [0, 30], not " + slackShift);
        }
        if (ssspLiveBound == null) throw new IllegalArgumentException("frontier.gpu.sssp-live-bound is required");
    }

    /**
     * Whether SSSP launches on a slack-form copy bound each row by its live count: {@code AUTO} on sparse graphs
     * only, {@code ON}, {@code OFF} (read the pads, which no relaxation takes).
     */
    public enum LiveBound {
        AUTO, ON, OFF;

        /** {@code auto}, {@code on} or {@code off}, any case. */
        public static LiveBound parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("frontier.gpu.sssp-live-bound must be auto, on or off, not '" + s + "'");
            }
        }
    }

    /** The same settings with lanes on or off. */
    public GpuSettings withLanes(boolean on) {
        return new GpuSettings(device, on, editsOnDevice, slackMin, slackShift, editPhases, ssspLiveBound);
    }

    /** The same settings with device edits on or off. */
    public GpuSettings withEditsOnDevice(boolean on) {
        return new GpuSettings(device, lanes, on, slackMin, slackShift, editPhases, ssspLiveBound);
    }
}
