package org.frontiergraph.kernels.standing;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.sssp.KeyForm;

/**
 * A batch's changed arcs on the device, for the trees' {@code repair_prepare}: tails, heads, and their weights in the
 * key forms the trees repaired need (-1: the arc is gone). Uploaded once per device repair from the batch's
 * {@link Screen}; the buffers are kept and grown between repairs, in the graph's ledger.
 */
final class ChangedArcs {
    private final DeviceGraph allocator;
    private DeviceBuffer tails, heads, weightsI32, weightsF64, weightsUnit;

    ChangedArcs(DeviceGraph allocator) {
        this.allocator = allocator;
    }

    /**
     * Uploads the screen's changed arcs, with their weights as hop counts ({@code unit}) and as the graph's weights
     * ({@code weighted}: integers when {@code intWeights}, else doubles).
     */
    void upload(Screen screen, boolean intWeights, boolean unit, boolean weighted) {
        int k = screen.arcs();
        tails = grow(allocator, tails, 4L * k);
        heads = grow(allocator, heads, 4L * k);
        tails.upload(screen.tails());
        heads.upload(screen.heads());
        double[] w = screen.weights();
        if (unit) {
            int[] u = new int[k];
            for (int i = 0; i < k; i++) u[i] = Double.isNaN(w[i]) ? -1 : 1;
            weightsUnit = grow(allocator, weightsUnit, 4L * k);
            weightsUnit.upload(u);
        }
        if (weighted && intWeights) {
            int[] x = new int[k];
            for (int i = 0; i < k; i++) x[i] = Double.isNaN(w[i]) ? -1 : (int) w[i];
            weightsI32 = grow(allocator, weightsI32, 4L * k);
            weightsI32.upload(x);
        } else if (weighted) {
            double[] x = new double[k];
            for (int i = 0; i < k; i++) x[i] = Double.isNaN(w[i]) ? -1 : w[i];
            weightsF64 = grow(allocator, weightsF64, 8L * k);
            weightsF64.upload(x);
        }
    }

    DeviceBuffer tails() { return tails; }

    DeviceBuffer heads() { return heads; }

    /** The arcs' weights in {@code form}, as uploaded last. */
    DeviceBuffer weights(KeyForm form) {
        return switch (form) {
            case UNIT -> weightsUnit;
            case I32 -> weightsI32;
            case F64 -> weightsF64;
        };
    }

    /** The buffers held (null where none yet), for the ledger and the close. */
    List<DeviceBuffer> buffers() {
        List<DeviceBuffer> all = new ArrayList<>(5);
        all.add(tails);
        all.add(heads);
        all.add(weightsI32);
        all.add(weightsF64);
        all.add(weightsUnit);
        return all;
    }

    /** {@code b}, or a larger buffer (at least {@code bytes}, growing geometrically) in place of it. */
    static DeviceBuffer grow(DeviceGraph allocator, DeviceBuffer b, long bytes) {
        if (b != null && b.bytes() >= bytes) return b;
        long size = Math.max(Math.max(bytes, 1024), b == null ? 0 : 2 * b.bytes());
        DeviceBuffer fresh = allocator.allocate(size)[0];
        if (b != null) b.close();
        return fresh;
    }
}
