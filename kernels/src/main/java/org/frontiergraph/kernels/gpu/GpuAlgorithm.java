package org.frontiergraph.kernels.gpu;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.frontiergraph.kernels.engine.Implementation;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * An algorithm's implementation on the GPU engine: how many device bytes its launcher allocates for a graph (the
 * launcher's own sizing, used for the memory check before it is opened) and how to open that launcher on a
 * resident graph. {@code atLoad}: opened when the graph is loaded (its working memory is part of the graph's
 * footprint from the start); otherwise on the first query that names it. Built in the algorithm's package.
 * {@code wide}: it runs on graphs stored wide ({@link CsrGraph#wide()}: 64-bit row offsets on the device, its kernels'
 * {@code _o64} entry points); one that does not is never the default there, never opened at load there, and a query
 * that names it on such a graph is refused ({@link #requireRunsOn}).
 */
public record GpuAlgorithm<Q, R>(List<String> variants, boolean atLoad, ToLongFunction<CsrGraph> deviceBytes,
                                 Function<DeviceGraph, GpuLauncher<Q, R>> open, Predicate<CsrGraph> defaultFor,
                                 Layout layout, boolean followsHost, boolean wide)
        implements Implementation<Q, R> {
    public GpuAlgorithm {
        variants = List.copyOf(variants);
    }

    /** An implementation that is the default wherever it is listed first, on a compact copy, following nothing. */
    public GpuAlgorithm(List<String> variants, boolean atLoad, ToLongFunction<CsrGraph> deviceBytes,
                        Function<DeviceGraph, GpuLauncher<Q, R>> open) {
        this(variants, atLoad, deviceBytes, open, g -> true, Layout.COMPACT, false, false);
    }

    /**
     * Which layout of the device copy an implementation reads. A resident graph keeps its copy in slack form
     * ({@link DeviceCsr#withSlack}: updates applied on the device as edits) while the launchers in use read it; a
     * query for one that reads the compact form only makes the copy compact first.
     */
    public enum Layout {
        /** The compact CSR only. */
        COMPACT,
        /** The slack form of an undirected graph; the compact form of a directed one. */
        SLACK_IF_UNDIRECTED,
        /**
         * Either form: its kernels read every slot of a row as an arc (pads are harmless self-loops for them) and it
         * reads nothing of the host graph that a device copy ahead of it would contradict (it sizes its lists by
         * {@link DeviceCsr#rowBounds()}).
         */
        ANY,
        /**
         * No CSR at all, only data of its own built from the host's version (the MST edge list, ids of the host's
         * {@link CsrGraph#undirectedEdges()}; Prim's adjacency): it runs beside either form, on the host's version.
         */
        OWN
    }

    /** Whether it runs on the device copy in its current form: {@code slack} or not, of a {@code directed} graph or not. */
    public boolean reads(boolean slack, boolean directed) {
        return !slack || layout == Layout.ANY || layout == Layout.OWN || (layout == Layout.SLACK_IF_UNDIRECTED && !directed);
    }

    /** The same implementation, reading the layout {@code which}. */
    public GpuAlgorithm<Q, R> reads(Layout which) {
        return new GpuAlgorithm<>(variants, atLoad, deviceBytes, open, defaultFor, which, followsHost, wide);
    }

    /**
     * The same implementation, keeping derived data that follows the host's versions: a resident graph hands its
     * launcher each merge ({@link GpuLauncher#merged}) and each run of re-weights ({@link GpuLauncher#reweighted}) of
     * the host copy as it reads them from the change log, and opens it again only where it cannot follow them. A
     * launcher of {@link Layout#OWN} that does not follow the host is opened again after every change.
     */
    public GpuAlgorithm<Q, R> followingHost() {
        return new GpuAlgorithm<>(variants, atLoad, deviceBytes, open, defaultFor, layout, true, wide);
    }

    /** The same implementation, the default only for the graphs {@code graphs} accepts. */
    public GpuAlgorithm<Q, R> defaultFor(Predicate<CsrGraph> graphs) {
        return new GpuAlgorithm<>(variants, atLoad, deviceBytes, open, graphs, layout, followsHost, wide);
    }

    /** The same implementation, able to run on graphs stored wide (its launcher picks the _o64 entry points). */
    public GpuAlgorithm<Q, R> wideCapable() {
        return new GpuAlgorithm<>(variants, atLoad, deviceBytes, open, defaultFor, layout, followsHost, true);
    }

    /** Whether it runs on {@code graph}: any narrow graph; a wide one when {@link #wide}. */
    public boolean runsOn(CsrGraph graph) {
        return wide || !graph.wide();
    }

    /** @throws UnsupportedVariantException when it does not run on {@code graph} ({@link #runsOn}), naming why */
    public void requireRunsOn(CsrGraph graph) {
        if (runsOn(graph)) return;
        throw new UnsupportedVariantException("GPU variant " + variants + " reads 32-bit arc offsets, and this graph of "
                + graph.arcs() + " arcs is stored wide (64-bit offsets); the default variants run on it");
    }

    @Override
    public boolean isDefaultFor(CsrGraph graph) {
        return runsOn(graph) && defaultFor.test(graph);
    }

    @Override
    public String backend() { return GpuBackend.NAME; }

    /** Device bytes the launcher takes on {@code graph}. */
    public long deviceBytes(CsrGraph graph) {
        return deviceBytes.applyAsLong(graph);
    }
}
