package org.frontiergraph.kernels.gpu;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * The launchers open on one resident graph, by implementation, and how they follow a new version: re-weights
 * ({@link GpuLauncher#reweighted}), merges ({@link GpuLauncher#merged}), or closed to be opened afresh by the next
 * query that needs them. Used inside the graph's lane.
 */
final class OpenLaunchers {
    private final Map<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> open = new IdentityHashMap<>();
    /** Launchers carried through merges so far (tests). */
    private int carried;

    GpuLauncher<?, ?> get(GpuAlgorithm<?, ?> impl) { return open.get(impl); }

    boolean has(GpuAlgorithm<?, ?> impl) { return open.containsKey(impl); }

    void put(GpuAlgorithm<?, ?> impl, GpuLauncher<?, ?> launcher) { open.put(impl, launcher); }

    int carried() { return carried; }

    /** Closes the launchers of the implementations {@code which} accepts. */
    void closeIf(Predicate<GpuAlgorithm<?, ?>> which) {
        List<GpuAlgorithm<?, ?>> drop = new ArrayList<>();
        for (GpuAlgorithm<?, ?> impl : open.keySet()) if (which.test(impl)) drop.add(impl);
        for (GpuAlgorithm<?, ?> impl : drop) open.remove(impl).close();
    }

    void closeAll() {
        open.values().forEach(GpuLauncher::close);
        open.clear();
    }

    /**
     * The arcs {@code changes} lists were re-weighted in place in {@code graph}: each launcher of the implementations
     * {@code which} accepts is told, and closed when it holds data derived from the old weights that it does not
     * refresh.
     */
    void reweighted(CsrGraph graph, ChangeLog.WeightChanges changes, Predicate<GpuAlgorithm<?, ?>> which) {
        if (changes.isEmpty()) return;
        closeIf(impl -> which.test(impl) && !open.get(impl).reweighted(graph, changes));
    }

    /**
     * The launchers of the implementations {@code which} accepts, moved into the version {@code next} holds by the
     * merge {@code m} ({@link GpuLauncher#merged}, a copy of their device data beside the old one, memory checked);
     * those that carry nothing, or find no room, are closed and opened afresh when needed.
     */
    void merged(DeviceGraph next, ChangeLog.Merge m, Predicate<GpuAlgorithm<?, ?>> which) {
        CudaContext context = next.context();
        List<GpuAlgorithm<?, ?>> moving = new ArrayList<>();
        for (GpuAlgorithm<?, ?> impl : open.keySet()) if (which.test(impl)) moving.add(impl);
        for (GpuAlgorithm<?, ?> impl : moving) {
            GpuLauncher<?, ?> l = open.remove(impl);
            GpuLauncher<?, ?> moved = null;
            try {
                moved = context.allocating(() -> l.merged(next, m));
            } catch (GraphTooLargeException e) {
                // no room for the moved copy beside the old one: opened afresh when needed
            } finally {
                l.close();
            }
            if (moved != null) {
                open.put(impl, moved);
                carried++;
            }
        }
    }
}
