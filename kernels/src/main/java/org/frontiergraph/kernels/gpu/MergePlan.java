package org.frontiergraph.kernels.gpu;

import java.util.Arrays;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * How a device copy of a merge's {@code before} becomes one of its {@code after} without the graph crossing the bus:
 * the untouched rows keep their arcs in order, shifted, so they move on the device in a few long pieces; the touched
 * rows are packed on the host (their arcs only) and written from one upload. Pieces are at most {@link #PIECE}
 * arcs, one block each ({@code copy_pieces_*} in graph.cu). {@link #applyTo} is the same plan on host arrays (the
 * tests' reference).
 */
public final class MergePlan {
    /** Arcs per piece: one block of 256 threads copies it, 32 arcs a thread. */
    static final int PIECE = 8192;

    /** (from, to, length) per piece of untouched rows, as arc indices into before and after. */
    final int[] kept;
    /** (from, to, length) per piece of touched rows, from the packed arrays into after. */
    final int[] written;
    final int[] packedColumns;
    final double[] packedWeights;

    private MergePlan(int[] kept, int[] written, int[] packedColumns, double[] packedWeights) {
        this.kept = kept;
        this.written = written;
        this.packedColumns = packedColumns;
        this.packedWeights = packedWeights;
    }

    static MergePlan of(ChangeLog.Merge merge) {
        CsrGraph before = merge.before(), after = merge.after();
        int[] bo = before.rowOffsets(), ao = after.rowOffsets(), rows = merge.touchedRows();
        int bn = before.vertexCount(), n = after.vertexCount();
        long packed = 0;
        for (int r : rows) packed += ao[r + 1] - ao[r];
        int[] pc = new int[Math.toIntExact(packed)];
        double[] pw = new double[pc.length];
        Pieces kept = new Pieces(), written = new Pieces();
        int next = 0, p = 0;
        for (int t = 0; t <= rows.length; t++) {
            int r = t < rows.length ? rows[t] : n;
            int runEnd = Math.min(r, bn);
            if (next < runEnd) kept.add(bo[next], ao[next], bo[runEnd] - bo[next]);
            if (t < rows.length) {
                int len = ao[r + 1] - ao[r];
                System.arraycopy(after.columns(), ao[r], pc, p, len);
                System.arraycopy(after.weights(), ao[r], pw, p, len);
                written.add(p, ao[r], len);
                p += len;
            }
            next = r + 1;
        }
        return new MergePlan(kept.toArray(), written.toArray(), pc, pw);
    }

    /** Runs (from, to, length) split into pieces of at most {@link #PIECE} elements. */
    public static int[] pieces(int[] runs) {
        Pieces p = new Pieces();
        for (int i = 0; i < runs.length; i += 3) p.add(runs[i], runs[i + 1], runs[i + 2]);
        return p.toArray();
    }

    int keptPieces() { return kept.length / 3; }

    int writtenPieces() { return written.length / 3; }

    /** The plan on host arrays: {@code newCol/newW} (after's size) from {@code oldCol/oldW} and the packed rows. */
    void applyTo(int[] oldCol, double[] oldW, int[] newCol, double[] newW) {
        for (int i = 0; i < kept.length; i += 3) {
            System.arraycopy(oldCol, kept[i], newCol, kept[i + 1], kept[i + 2]);
            System.arraycopy(oldW, kept[i], newW, kept[i + 1], kept[i + 2]);
        }
        for (int i = 0; i < written.length; i += 3) {
            System.arraycopy(packedColumns, written[i], newCol, written[i + 1], written[i + 2]);
            System.arraycopy(packedWeights, written[i], newW, written[i + 1], written[i + 2]);
        }
    }

    /** Pieces of at most {@link #PIECE} arcs; a run continuing the previous one extends it. */
    private static final class Pieces {
        private int[] a = new int[48];
        private int size;

        void add(int from, int to, int len) {
            while (len > 0) {
                if (size > 0 && a[size - 3] + a[size - 1] == from && a[size - 2] + a[size - 1] == to && a[size - 1] < PIECE) {
                    int grow = Math.min(len, PIECE - a[size - 1]);
                    a[size - 1] += grow;
                    from += grow;
                    to += grow;
                    len -= grow;
                    continue;
                }
                if (size + 3 > a.length) a = Arrays.copyOf(a, 2 * a.length);
                int take = Math.min(len, PIECE);
                a[size++] = from;
                a[size++] = to;
                a[size++] = take;
                from += take;
                to += take;
                len -= take;
            }
        }

        int[] toArray() { return Arrays.copyOf(a, size); }
    }
}
