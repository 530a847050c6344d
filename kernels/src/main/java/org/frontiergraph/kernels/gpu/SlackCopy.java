package org.frontiergraph.kernels.gpu;

import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.Changes;

/**
 * A device copy in slack form ({@link DeviceCsr#withSlack}: rows with room for more arcs, laid out once, then again
 * only when a row fills up), ahead of the host's merges: every update since the last catch-up is applied on the
 * device as edits ({@link DeviceCsr#edited}), with no merge on the host, while the launchers in use read this form
 * ({@link GpuAlgorithm#reads}). The launchers of {@link GpuAlgorithm.Layout#OWN} follow the host's versions beside it
 * ({@link GpuResidentGraph#follow}). Where edits do not apply (new vertices, zero weights, whose SSSP parents are
 * traced on the host, weights the int32 form cannot hold, a batch of more than {@link #MAX_EDIT_FRACTION} of the
 * arcs), or the log dropped what it had not read, the copy is reloaded compact from the host's current version.
 */
final class SlackCopy extends DeviceCopy {
    /** A batch larger than this fraction of the arcs is merged on the host instead (as cheap there, and compact). */
    static final double MAX_EDIT_FRACTION = 0.25;

    private final DeviceCsr csr;

    private SlackCopy(GpuResidentGraph owner, DeviceCsr csr) {
        super(owner);
        this.csr = csr;
    }

    @Override
    DeviceCsr csr() { return csr; }

    @Override
    boolean slack() { return true; }

    @Override
    DeviceCopy catchUp() {
        Changes c = owner.cursor().read();
        if (c.restart()) return owner.reload();
        ChangedEdges edges = c.edges();
        if (edges.isEmpty(owner.mutable().vertexCount())) {
            owner.follow(c);   // nothing for the copy; the host may have merged
            return this;
        }
        owner.editCost(0, 0, 0);
        DeviceCopy edited = edit(owner, csr, c);
        return edited != null ? edited : owner.reload();
    }

    /**
     * The edges {@code c} lists applied to {@code csr} (compact or slack: the first time, the copy is laid out in slack
     * form): the slack copy that holds them, or null when edits do not apply (the copy untouched; the caller takes the
     * host's path), or the copy reloaded from the host when the new layout did not fit (the copy may hold part of the
     * edits). Launchers that read the CSR are closed unless they read the slack form and its rows stayed in place;
     * those of {@link GpuAlgorithm.Layout#OWN} follow the host's merges and re-weights of {@code c}.
     */
    static DeviceCopy edit(GpuResidentGraph owner, DeviceCsr csr, Changes c) {
        ChangedEdges edges = c.edges();
        int n = owner.mutable().vertexCount();
        if (edges.size() == 0 || edges.vertexCountBefore() != n || n != csr.vertexCount || csr.zeroWeights()
                || csr.wide) {
            return null;   // (a wide copy has no slack form: the host merges and the copy is reloaded)
        }
        if (edges.size() > MAX_EDIT_FRACTION * Math.max(1, csr.arcCount)) return null;
        long t0 = System.nanoTime();
        DeviceEdits ops = DeviceEdits.of(owner.mutable(), edges);
        if (ops.zero()) return null;
        long t1 = System.nanoTime();
        DeviceCsr next;
        try {
            next = csr.edited(ops, n);
            owner.context().synchronize();
        } catch (GraphTooLargeException e) {
            return owner.reload();
        }
        if (next == null) return null;
        owner.editCost(t1 - t0, System.nanoTime() - t1, ops.size());
        SlackCopy copy = next == csr && owner.copy() instanceof SlackCopy same ? same : new SlackCopy(owner, next);
        owner.moveTo(copy, owner.base());
        owner.follow(c);
        owner.launchers().closeIf(impl -> impl.layout() != GpuAlgorithm.Layout.OWN && (next != csr
                || !impl.reads(true, next.directed) || !owner.launchers().get(impl).reweighted(owner.base(), ChangeLog.WeightChanges.ALL)));
        return copy;
    }

    @Override
    void close() { csr.close(); }
}
