package org.frontiergraph.kernels.gpu;

import org.frontiergraph.kernels.engine.GraphTooLargeException;

/**
 * The device copy of a resident graph's CSR in one layout, and how that layout catches up with the host's change
 * log: {@link CompactCopy} (the host's version, array for array: re-weights scattered, merges moved on the device),
 * {@link SlackCopy} (rows with room: updates applied on the device as edits, ahead of the host's merges), or
 * {@link Missing} (none: the last reload did not fit). Each {@link #catchUp()} reads the graph's cursor and returns
 * the copy on the device afterwards: itself, a copy in the other layout, or one reloaded from the host. Used inside
 * the graph's lane.
 */
abstract sealed class DeviceCopy permits CompactCopy, SlackCopy, DeviceCopy.Missing {
    final GpuResidentGraph owner;

    DeviceCopy(GpuResidentGraph owner) {
        this.owner = owner;
    }

    /** The CSR on the device. @throws GraphTooLargeException when there is none */
    abstract DeviceCsr csr();

    /** Brings the copy to the host's current version; returns the copy on the device now (this, or its successor). */
    abstract DeviceCopy catchUp();

    /** Frees the device buffers; safe to call twice. */
    abstract void close();

    boolean slack() { return false; }

    /** No copy on the device: the last reload did not fit. The next catch-up tries again. */
    static final class Missing extends DeviceCopy {
        Missing(GpuResidentGraph owner) {
            super(owner);
        }

        @Override
        DeviceCsr csr() {
            throw new GraphTooLargeException("the graph has no device copy");
        }

        @Override
        DeviceCopy catchUp() { return owner.reload(); }

        @Override
        void close() {}
    }
}
