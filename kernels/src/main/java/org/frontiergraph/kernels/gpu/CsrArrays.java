package org.frontiergraph.kernels.gpu;

/**
 * A device copy's arrays downloaded to the host (tests): row offsets, columns and the weights as doubles; in slack
 * form the live arcs only, each row's in device order, as a compact CSR; a wide copy's 64-bit row offsets as ints
 * (the graphs tests widen are small).
 */
record CsrArrays(int[] rowOffsets, int[] columns, double[] weights) {
    /** The live arcs of {@code csr}, as a compact CSR. */
    static CsrArrays of(DeviceCsr csr) {
        if (!csr.slack()) return slots(csr);
        CsrArrays all = slots(csr);
        int n = csr.vertexCount;
        int[] d = csr.liveCounts(), rows = new int[n + 1], bounds = csr.rowBounds();
        for (int u = 0; u < n; u++) rows[u + 1] = rows[u] + d[u];
        int[] cols = new int[rows[n]];
        double[] w = new double[cols.length];
        for (int u = 0; u < n; u++) {
            System.arraycopy(all.columns(), bounds[u], cols, rows[u], d[u]);
            System.arraycopy(all.weights(), bounds[u], w, rows[u], d[u]);
        }
        return new CsrArrays(rows, cols, w);
    }

    /** Every slot of {@code csr} as on the device (pads included in slack form). */
    static CsrArrays slots(DeviceCsr csr) {
        int n = csr.vertexCount;
        int[] rows = new int[n + 1], cols = new int[Math.toIntExact(csr.arcCount)];
        if (csr.wide) {
            long[] wide = new long[n + 1];
            csr.rowOffsets.download(wide);
            for (int u = 0; u <= n; u++) rows[u] = Math.toIntExact(wide[u]);
        } else {
            csr.rowOffsets.download(rows);
        }
        csr.columns.download(cols);
        double[] w = new double[cols.length];
        if (csr.intWeights()) {
            int[] iw = new int[w.length];
            csr.weights().download(iw);
            for (int i = 0; i < w.length; i++) w[i] = iw[i];
        } else {
            long[] bits = new long[w.length];
            csr.weights().download(bits);
            for (int i = 0; i < w.length; i++) w[i] = Double.longBitsToDouble(bits[i]);
        }
        return new CsrArrays(rows, cols, w);
    }
}
