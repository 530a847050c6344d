package org.frontiergraph.kernels.gpu;

import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.Changes;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * A device copy equal to the host's version {@link GpuResidentGraph#base()}, array for array. It catches up by the
 * cheapest route the changes allow: a structural change becomes device edits of a {@link SlackCopy} (when edits are
 * on and apply: {@link SlackCopy#edit}); otherwise the host merges, and the copy follows each merge on the device
 * from the rows it touched ({@link DeviceCsr#merged}: the untouched rows move within the device, only the touched
 * ones and the row offsets are uploaded; launchers carried by {@link GpuLauncher#merged} or opened again), then
 * scatters the arcs re-weighted in place ({@link DeviceCsr#patchWeights}: one small upload and one launch, however
 * many updates they came from). It is reloaded from the host when the log dropped what it had not read, a merge does
 * not start at its version, the old and new copies do not fit side by side, or either is wide (64-bit offsets: a
 * wide copy is never merged on the device, its re-weights are scattered by 64-bit arc index).
 */
final class CompactCopy extends DeviceCopy {
    private final DeviceCsr csr;

    CompactCopy(GpuResidentGraph owner, DeviceCsr csr) {
        super(owner);
        this.csr = csr;
    }

    @Override
    DeviceCsr csr() { return csr; }

    @Override
    DeviceCopy catchUp() {
        Changes first = owner.cursor().read();
        if (first.restart()) return owner.reload();
        if (owner.settings().editsOnDevice() && first.edges().size() > 0) {
            owner.editCost(0, 0, 0);   // none yet for these changes
            DeviceCopy edited = first.structural() ? SlackCopy.edit(owner, csr, first) : null;
            if (edited != null) return edited;
        }
        CsrGraph now = owner.mutable().current();
        Changes c = first.then(owner.cursor().read());
        if (c.restart()) return owner.reload();
        CompactCopy copy = this;
        if (!c.merges().isEmpty()) {
            if (csr.wide || c.merges().stream().anyMatch(m -> m.after().wide())) return owner.reload();
            copy = owner.context().allocating(() -> merged(c));
            if (copy == null) return owner.reload();
        }
        if (owner.base() != now) return owner.reload();
        ChangeLog.WeightChanges w = c.reweighted();
        if (w.isEmpty()) return copy;
        copy.csr.patchWeights(now, w);
        owner.launchers().reweighted(now, w, GpuResidentGraph::handedChanges);
        owner.launchers().closeIf(impl -> !GpuResidentGraph.handedChanges(impl));
        return copy;
    }

    /**
     * The merges of {@code c} applied on the device, oldest first (inside {@link CudaContext#allocating}), the
     * launchers carried or opened again on the result; null when one cannot apply (the caller reloads).
     */
    private CompactCopy merged(Changes c) {
        CompactCopy at = this;
        for (ChangeLog.Merge m : c.merges()) {
            long need = DeviceCsr.bytesFor(m.after()) + GpuBackend.RESERVE_BYTES;
            if (m.before() != owner.base() || owner.context().freeBytes() < need) return null;
            DeviceCsr next;
            try {
                next = at.csr.merged(m);
            } catch (GraphTooLargeException e) {
                return null;   // freed what it allocated; the reload frees the old copy first
            }
            CompactCopy moved = new CompactCopy(owner, next);
            owner.moveTo(moved, m.after());
            owner.launchers().closeIf(impl -> !GpuResidentGraph.handedChanges(impl));
            owner.launchers().merged(owner.device(), m, GpuResidentGraph::handedChanges);   // carried, or closed
            at.close();
            at = moved;
        }
        owner.deviceMerged();
        owner.openAtLoad(true);
        return at;
    }

    @Override
    void close() { csr.close(); }
}
