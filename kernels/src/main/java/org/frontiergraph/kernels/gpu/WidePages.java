package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.graph.ArcPages;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * A graph's arcs read through 64-bit offsets, for the GPU engine's graphs stored wide ({@link CsrGraph#wide()}: more
 * arcs than an int indexes, or a small graph widened to exercise that path): the page-by-page copy of the per-arc
 * arrays into one device allocation each (degrees and per-arc values come from {@link CsrGraph}'s own accessors). A narrow graph is read through its int arrays as before.
 * Kernels read a wide copy's row offsets as int64 (the {@code _o64} entry points, {@link DeviceCsr#offsetEntry}).
 */
public final class WidePages {
    private WidePages() {}

    /** Suffix of the entry points compiled for 64-bit row offsets. */
    public static final String O64 = "_o64";

    /** Rows of at least {@code slots} arcs, by 64-bit offsets. */
    static int rowsOfAtLeast(long[] off, int n, int slots) {
        int count = 0;
        for (int u = 0; u < n; u++) if (off[u + 1] - off[u] >= slots) count++;
        return count;
    }

    /** The weights of the arcs {@code arcs} of {@code g} (read by 64-bit index). */
    static double[] weightsAt(CsrGraph g, long[] arcs) {
        double[] v = new double[arcs.length];
        for (int i = 0; i < arcs.length; i++) v[i] = g.weightAt(arcs[i]);
        return v;
    }

    /** The columns of {@code pages} ({@code arcs} in all) in one device buffer, copied page by page. */
    static DeviceBuffer columns(CudaContext context, AtomicLong ledger, ArcPages pages, long arcs) {
        DeviceBuffer b = DeviceBuffer.allocate(context, ledger, 4L * arcs);
        try {
            for (int p = 0; p < pages.pageCount(); p++) b.uploadAt(4L * pages.firstArc(p), pages.columns()[p]);
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    /** The largest weight, whether one is zero, and their sum, of the arcs of {@code pages}. */
    record Stats(double max, boolean zero, double sum) {
        static Stats of(ArcPages pages) {
            double max = 0, sum = 0;
            boolean zero = false;
            for (double[] page : pages.weights()) {
                for (double x : page) {
                    if (x > max) max = x;
                    if (x == 0) zero = true;
                    sum += x;
                }
            }
            return new Stats(max, zero, sum);
        }
    }

    /**
     * Writes the weights of {@code pages} into {@code into} ({@code arcs} of them, allocated by the caller), int32 when
     * {@code ints} (every weight an integer), else float64, page by page.
     */
    static void uploadWeights(DeviceBuffer into, ArcPages pages, boolean ints) {
        for (int p = 0; p < pages.pageCount(); p++) {
            double[] w = pages.weights()[p];
            long first = pages.firstArc(p);
            if (ints) {
                int[] iw = new int[w.length];
                for (int i = 0; i < w.length; i++) iw[i] = (int) w[i];
                into.uploadAt(4L * first, iw);
            } else {
                into.uploadAt(8L * first, w);
            }
        }
    }

    /** {@code dst[index[i]] = value[i]} on int32 elements, 64-bit indices (graph.cu's scatter_i32_o64). */
    static void scatterInts(CudaContext context, AtomicLong ledger, DeviceBuffer dst, long[] index, int[] value) {
        if (index.length == 0) return;
        try (DeviceBuffer i = DeviceBuffer.of(context, ledger, index); DeviceBuffer v = DeviceBuffer.of(context, ledger, value)) {
            context.module("graph").kernel("scatter_i32_o64").launch(Kernel.blocksFor(index.length), dst, i, v, index.length);
            context.synchronize();
        }
    }

    /** {@code dst[index[i]] = value[i]} on float64 elements, 64-bit indices (graph.cu's scatter_f64_o64). */
    static void scatterDoubles(CudaContext context, AtomicLong ledger, DeviceBuffer dst, long[] index, double[] value) {
        if (index.length == 0) return;
        try (DeviceBuffer i = DeviceBuffer.of(context, ledger, index); DeviceBuffer v = DeviceBuffer.of(context, ledger, value)) {
            context.module("graph").kernel("scatter_f64_o64").launch(Kernel.blocksFor(index.length), dst, i, v, index.length);
            context.synchronize();
        }
    }
}
