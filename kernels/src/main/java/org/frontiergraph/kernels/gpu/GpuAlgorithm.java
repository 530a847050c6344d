package org.frontiergraph.kernels.gpu;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.frontiergraph.kernels.engine.Implementation;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * An algorithm's implementation on the GPU engine: how many device bytes its launcher allocates for a graph (the
 * launcher's own sizing, used for the memory check before it is opened) and how to open that launcher on a
 * resident graph. {@code atLoad}: opened when the graph is loaded (its working memory is part of the graph's
 * footprint from the start); otherwise on the first query that names it. Built in the algorithm's package.
 */
public record GpuAlgorithm<Q, R>(List<String> variants, boolean atLoad, ToLongFunction<CsrGraph> deviceBytes,
                                 Function<DeviceGraph, GpuLauncher<Q, R>> open, Predicate<CsrGraph> defaultFor,
                                 Slack slack)
        implements Implementation<Q, R> {
    public GpuAlgorithm {
        variants = List.copyOf(variants);
    }

    /** An implementation that is the default wherever it is listed first. */
    public GpuAlgorithm(List<String> variants, boolean atLoad, ToLongFunction<CsrGraph> deviceBytes,
                        Function<DeviceGraph, GpuLauncher<Q, R>> open) {
        this(variants, atLoad, deviceBytes, open, g -> true, Slack.NO);
    }

    /**
     * Which device copies in slack form ({@link DeviceCsr#withSlack}) an implementation runs on. {@code EDGES}: it
     * reads no CSR at all, only an edge-indexed copy of its own (the MST edge list, ids of the host's
     * {@link CsrGraph#undirectedEdges()}), so it runs beside any device copy, compact or slack, and follows the host's
     * versions instead: a resident graph hands it each merge ({@link GpuLauncher#merged}) and each run of re-weights
     * ({@link GpuLauncher#reweighted}) of the host copy as they are drained, and opens it again only where it cannot
     * follow them.
     */
    public enum Slack { NO, UNDIRECTED, ANY, EDGES }

    /** Whether it runs on a slack-form copy of a graph that is {@code directed} or not. */
    public boolean runsOnSlack(boolean directed) {
        return slack == Slack.ANY || slack == Slack.EDGES || (slack == Slack.UNDIRECTED && !directed);
    }

    /** Whether it reads no CSR and follows the host's versions ({@link Slack#EDGES}). */
    public boolean followsHost() {
        return slack == Slack.EDGES;
    }

    /**
     * The same implementation, declared to run on a {@link DeviceCsr} in slack form: its kernels read every slot of
     * a row as an arc (pads are harmless self-loops for them) and it reads nothing of the host graph that a device
     * copy ahead of it would contradict (it sizes its lists by {@link DeviceCsr#rowBounds()}). A query for an
     * implementation that is not such makes a resident graph's slack-form copy compact first.
     */
    public GpuAlgorithm<Q, R> onSlack() {
        return onSlack(Slack.ANY);
    }

    /** The same, on the slack form of the graphs {@code which} says. */
    public GpuAlgorithm<Q, R> onSlack(Slack which) {
        return new GpuAlgorithm<>(variants, atLoad, deviceBytes, open, defaultFor, which);
    }

    /** The same implementation, the default only for the graphs {@code graphs} accepts. */
    public GpuAlgorithm<Q, R> defaultFor(Predicate<CsrGraph> graphs) {
        return new GpuAlgorithm<>(variants, atLoad, deviceBytes, open, graphs, slack);
    }

    @Override
    public boolean isDefaultFor(CsrGraph graph) {
        return defaultFor.test(graph);
    }

    @Override
    public String backend() { return GpuBackend.NAME; }

    /** Device bytes the launcher takes on {@code graph}. */
    public long deviceBytes(CsrGraph graph) {
        return deviceBytes.applyAsLong(graph);
    }
}
